/**
 * Realtime channel names (spec part 1 §7 and part 2 §7). Every event name carries
 * the company id, and so does every room, so no socket can hear another tenant.
 */
export const REALTIME_ENTITIES = [
  'ticket',
  'appMessage',
  'contact',
  'auth',
  'user',
  'whatsapp',
  'whatsappSession',
  'queue',
  'settings',
  'chat',
  'payment',
  'tag',
  'quickMessage',
  'sandbox',
  'prompt',
  'queueIntegration',
] as const;
export type RealtimeEntity = (typeof REALTIME_ENTITIES)[number];

export function companyEvent(companyId: number, entity: RealtimeEntity): string {
  return `company-${companyId}-${entity}`;
}

/** Announcements are platform-wide; the spec names this one without a company id. */
export const ANNOUNCEMENT_EVENT = 'company-announcement';

/** Events the client emits. */
export const CLIENT_EVENTS = {
  joinChatBox: 'joinChatBox',
  leaveChatBox: 'leaveChatBox',
  joinNotification: 'joinNotification',
  leaveNotification: 'leaveNotification',
  joinTickets: 'joinTickets',
  leaveTickets: 'leaveTickets',
  userStatus: 'userStatus',
} as const;

/**
 * Events the server emits to one socket. `ready`: authentication and the
 * socket's own rooms are done; the spec's client makes its joins only after it
 * (on every connect, reconnects included).
 */
export const SERVER_EVENTS = {
  ready: 'ready',
} as const;

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

export interface AuthEventPayload {
  action: 'update';
  user: { id: number; email: string; companyId: number };
}
