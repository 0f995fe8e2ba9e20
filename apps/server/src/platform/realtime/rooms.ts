import type { TicketStatus } from '@atende/shared';

/** Every room name starts with the company id: a socket can only be in its own company's rooms. */
export const rooms = {
  company: (companyId: number) => `company:${companyId}`,
  user: (companyId: number, userId: number) => `company:${companyId}:user:${userId}`,
  admins: (companyId: number) => `company:${companyId}:admins`,
  /** The company's admins hear payments here, also while the company is overdue (then it is their only room). */
  billing: (companyId: number) => `company:${companyId}:billing`,
  notification: (companyId: number) => `company:${companyId}:notification`,
  tickets: (companyId: number, status: TicketStatus) => `company:${companyId}:tickets:${status}`,
  chatBox: (companyId: number, ticketId: number) => `company:${companyId}:ticket:${ticketId}`,
  /** Users of a queue hear its tickets. */
  queue: (companyId: number, queueId: number) => `company:${companyId}:queue:${queueId}`,
  /** Users with allTicket enabled hear every pending ticket. */
  allTicket: (companyId: number) => `company:${companyId}:allticket`,
  /** Platform-wide events (announcements) go to everyone; the spec names them so. */
  everyone: () => 'everyone',
};
