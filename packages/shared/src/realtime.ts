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
  // schedules (issue 20)
  'schedule',
  // contact lists (issue 20)
  'ContactList',
  'ContactListItem',
  'campaign',
  'file',
  // event webhooks (issue 34 item 3): to the company's admins
  'webhook',
  // response-time targets missed (issue 35): to the agent and the queue's admins
  'slaBreach',
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
  /** Sends the refreshed access token; without it the socket ends when the old one expires. */
  updateToken: 'updateToken',
} as const;

/** Events the server emits to one socket (not company-scoped: they concern that socket only). */
export const SERVER_EVENTS = {
  /**
   * Authentication and the socket's own rooms are done: the spec's client makes
   * its joins only after it. Sent on every connect (reconnects included) and
   * again after each re-sync of the user's rights.
   */
  ready: 'ready',
} as const;

export const TICKET_STATUSES = ['open', 'pending', 'closed'] as const;
export type TicketStatus = (typeof TICKET_STATUSES)[number];

/** Why the server ended a socket: the client must not reconnect with the same token. */
export const SESSION_END_REASONS = ['tokenExpired', 'tokenRevoked', 'loggedOut', 'userDeleted', 'companyInactive'] as const;
export type SessionEndReason = (typeof SESSION_END_REASONS)[number];

/** `update`: the account logged in elsewhere. `sessionEnded`: this socket is closed by the server right after. */
export interface AuthEventUser {
  id: number;
  email: string;
  companyId: number;
}
export type AuthEventPayload =
  | { action: 'update'; user: AuthEventUser }
  | { action: 'sessionEnded'; reason: SessionEndReason };
