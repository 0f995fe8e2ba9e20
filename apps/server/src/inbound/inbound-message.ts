import type { StoredMedia } from '../platform/storage/media-storage.js';

/** Kinds of message beyond plain text and files (spec part 1 §3 Message.mediaType). */
export type SpecialMediaType = 'locationMessage' | 'vcard' | 'contactMessage' | 'call_log';

/**
 * The one shape every provider turns its incoming events into. Providers never
 * write tickets or messages themselves: they call `ingestMessage`.
 */
export interface InboundMessage {
  companyId: number;
  whatsappId: number;
  /** The channel's id for the message; the same id twice stores one message. */
  externalId?: string | null;
  /** The chat's number: the customer's, or the group's id for group chats. */
  from: string;
  contactName?: string;
  body: string;
  /** Typed on the connected phone itself rather than by the customer. */
  fromMe?: boolean;
  media?: StoredMedia;
  specialType?: SpecialMediaType;
  quotedExternalId?: string | null;
  isGroup?: boolean;
  /** Group chats: who wrote it. */
  senderName?: string;
  timestamp?: Date;
}
