/** The customer's stored message, as the automation needs it. */
export interface InboundTurn {
  companyId: number;
  ticketId: number;
  messageId: number;
  body: string;
  mediaType: string | null;
  mediaPath: string | null;
  mediaName: string | null;
}

