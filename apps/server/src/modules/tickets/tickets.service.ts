import type { ExpectedTicketState } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, prompts, queueIntegrations, queues, users, whatsapps } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize, requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { findPreferredConnectionId } from '../connections/connections.repo.js';
import { findUserConnectionId } from '../users/users.repo.js';
import { recordWebhookEvent } from '../webhooks/webhook-outbox.js';
import { presentTicket, type TicketDetail } from './tickets.presenter.js';
import {
  canSeeTicket,
  countTickets,
  deleteTicketRow,
  findActiveTicket,
  findTicketDetail,
  findTicketIdByUuid,
  insertTicket,
  listTickets,
  listTicketsByStatus,
  lockTicket,
  updateTicketRow,
  type TicketChange,
  type TicketListFilters,
} from './tickets.repo.js';

/**
 * What the tickets module uses: the database (its raw executor too: the lists come
 * presented by PostgreSQL) and the domain events (`ticket.changedByAgent` is awaited).
 */
export type TicketsDeps = Pick<Platform, 'db' | 'database' | 'events'>;

const ACCESS_DENIED = 'Acesso não permitido';

function accessDenied(): AppError {
  return new AppError('ERR_NO_PERMISSION', undefined, { message: ACCESS_DENIED });
}

/** A ticket of the caller's company it may open: another company's is 404, outside its queues 403. */
export async function showTicket(deps: Pick<TicketsDeps, 'db'>, ctx: RequestContext, id: number): Promise<TicketDetail> {
  const ticket = await findTicketDetail(deps.db, ctx, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canSeeTicket(ctx, ticket)) throw accessDenied();
  return ticket;
}

/** `GET /tickets/u/:uuid`: the ticket behind a link, with the same rules as by id. */
export async function showTicketByUuid(deps: Pick<TicketsDeps, 'db'>, ctx: RequestContext, uuid: string): Promise<TicketDetail> {
  const id = await findTicketIdByUuid(deps.db, ctx, uuid);
  if (id === null) throw new AppError('ERR_NO_TICKET_FOUND');
  return showTicket(deps, ctx, id);
}

/** A page of the ticket lists as JSON text (presented by the database) and whether more follow. */
export async function listTicketPage(deps: Pick<TicketsDeps, 'database'>, ctx: RequestContext, filters: TicketListFilters) {
  return listTickets(deps.database, ctx, filters);
}

/** How many tickets the list with these filters holds in all. */
export async function countTicketList(deps: Pick<TicketsDeps, 'database'>, ctx: RequestContext, filters: TicketListFilters): Promise<number> {
  return countTickets(deps.database, ctx, filters);
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

async function otherOpenTicket(db: DbOrTx, ctx: RequestContext, contactId: number, whatsappId: number | null) {
  const existing = await findActiveTicket(db, ctx, contactId, whatsappId);
  if (!existing) return null;
  const detail = await findTicketDetail(db, ctx, existing.id);
  return new AppError('ERR_OTHER_OPEN_TICKET', undefined, detail ? { ticket: presentTicket(detail) } : {});
}

/** The connection a new ticket uses: the one asked for, the user's, the default, or the first. */
async function pickConnection(deps: Pick<TicketsDeps, 'db'>, ctx: RequestContext, requested: number | null | undefined): Promise<number> {
  if (requested) {
    await assertIdsInTenant(deps.db, ctx, whatsapps, [requested], 'ERR_NO_WAPP_FOUND');
    return requested;
  }
  const own = await findUserConnectionId(deps.db, ctx, ctx.user.id);
  if (own) return own;
  const fallback = await findPreferredConnectionId(deps.db, ctx);
  if (fallback === null) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return fallback;
}

async function assertQueueAllowed(deps: Pick<TicketsDeps, 'db'>, ctx: RequestContext, queueId: number | null | undefined): Promise<void> {
  if (queueId === null || queueId === undefined) {
    // New-ticket rule (spec part 1 §5): a queue is required unless the user is an admin.
    if (ctx.user.profile !== 'admin') {
      throw new AppError('ERR_VALIDATION', undefined, { message: 'Select a queue', fields: { queueId: ['Select a queue'] } });
    }
    return;
  }
  await assertIdsInTenant(deps.db, ctx, queues, [queueId], 'ERR_NO_QUEUE_FOUND');
  if (ctx.user.profile !== 'admin' && !ctx.user.queueIds.includes(queueId)) throw new AppError('ERR_NO_PERMISSION');
}

export interface CreateTicketInput {
  contactId: number;
  queueId?: number | null;
  whatsappId?: number | null;
  status?: 'open' | 'pending';
  /**
   * The queue is that of a ticket the user may open (a forward continues it), not a choice the
   * user makes: the new-ticket rule on queues (spec part 1 §5) does not apply.
   */
  inheritedQueue?: boolean;
}

/** A ticket's webhook event (issue 34 item 3), in order with its messages' (`ticket:<id>`). */
function ticketWebhookEvent(companyId: number, event: 'ticket.created' | 'ticket.updated', ticket: TicketDetail) {
  return { companyId, event, orderingKey: `ticket:${ticket.id}`, data: () => presentTicket(ticket) };
}

/** The webhook event of a ticket just written in `tx`, presented as the API shows it (read only when a webhook listens). */
export async function recordTicketWebhookEvent(tx: DbOrTx, scope: { companyId: number }, event: 'ticket.created' | 'ticket.updated', ticketId: number): Promise<void> {
  await recordWebhookEvent(tx, {
    companyId: scope.companyId,
    event,
    orderingKey: `ticket:${ticketId}`,
    data: async () => {
      const ticket = await findTicketDetail(tx, scope, ticketId);
      return ticket ? presentTicket(ticket) : { id: ticketId };
    },
  });
}

export async function createTicket(deps: Pick<TicketsDeps, 'db' | 'events'>, ctx: RequestContext, input: CreateTicketInput): Promise<TicketDetail> {
  await assertIdsInTenant(deps.db, ctx, contacts, [input.contactId], 'ERR_NO_CONTACT_FOUND');
  if (!input.inheritedQueue) await assertQueueAllowed(deps, ctx, input.queueId);
  const whatsappId = await pickConnection(deps, ctx, input.whatsappId);
  const conflict = await otherOpenTicket(deps.db, ctx, input.contactId, whatsappId);
  if (conflict) throw conflict;
  const status = input.status ?? 'open';
  let id: number;
  try {
    id = await deps.db.transaction(async (tx) => {
      const created = await insertTicket(tx, ctx, {
        contactId: input.contactId,
        whatsappId,
        queueId: input.queueId ?? null,
        status,
        userId: status === 'open' ? ctx.user.id : null,
      });
      if (created === null) throw new AppError('ERR_CREATING_TICKET');
      await recordTicketWebhookEvent(tx, ctx, 'ticket.created', created);
      return created;
    });
  } catch (error) {
    // Lost a race with an incoming message that opened one first.
    if (isUniqueViolation(error)) throw (await otherOpenTicket(deps.db, ctx, input.contactId, whatsappId)) ?? error;
    throw error;
  }
  const ticket = await findTicketDetail(deps.db, ctx, id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket });
  return ticket;
}

export interface UpdateTicketInput {
  status?: 'open' | 'pending' | 'closed';
  userId?: number | null;
  queueId?: number | null;
  whatsappId?: number | null;
  useIntegration?: boolean;
  promptId?: number | null;
  integrationId?: number | null;
  /** The ticket as the client saw it (ours; see ExpectedTicketState). */
  expected?: ExpectedTicketState;
}

function invalidTransition(from: string, to: string | undefined): AppError {
  return new AppError('ERR_VALIDATION', undefined, { message: `A ${from} ticket cannot become ${to ?? 'that'}`, fields: { status: ['Invalid status change'] } });
}

/**
 * The ticket state table of spec part 1 §4: accept, return, close, reopen and
 * transfer. Returns the column changes; the caller persists them.
 */
async function planChange(db: DbOrTx, ctx: RequestContext, current: TicketDetail, input: UpdateTicketInput): Promise<TicketChange> {
  const me = ctx.user.id;
  if (input.status === 'closed') {
    return { status: 'closed', userId: me, closedAt: new Date(), useIntegration: false, promptId: null, integrationId: null, unreadMessages: 0 };
  }
  if (current.status === 'closed') {
    if (input.status !== 'open') throw invalidTransition('closed', input.status);
    const conflict = await otherOpenTicket(db, ctx, current.contactId, current.whatsappId);
    if (conflict) throw conflict;
    return { status: 'open', userId: me, closedAt: null };
  }

  const queueChanges = input.queueId !== undefined && input.queueId !== current.queueId;
  const connectionChanges = input.whatsappId !== undefined && input.whatsappId !== null && input.whatsappId !== current.whatsappId;
  // Naming oneself moves the ticket only when another agent has it open (a takeover that
  // updateTicket let through); on a pending ticket it is the accept below.
  const userChanges =
    input.userId !== undefined && input.userId !== null && input.userId !== current.userId && (input.userId !== me || current.status === 'open');
  if (queueChanges || connectionChanges || userChanges) {
    if (input.queueId) await assertIdsInTenant(db, ctx, queues, [input.queueId], 'ERR_NO_QUEUE_FOUND');
    if (input.userId) await assertIdsInTenant(db, ctx, users, [input.userId], 'ERR_NO_USER_FOUND');
    const change: TicketChange = { queueId: input.queueId === undefined ? current.queueId : input.queueId };
    if (connectionChanges && input.whatsappId) {
      await assertIdsInTenant(db, ctx, whatsapps, [input.whatsappId], 'ERR_NO_WAPP_FOUND');
      const conflict = await otherOpenTicket(db, ctx, current.contactId, input.whatsappId);
      if (conflict) throw conflict;
      change.whatsappId = input.whatsappId;
    }
    // Transfer to a queue without choosing a user: back to pending, nobody's.
    if (input.userId === undefined || input.userId === null) return { ...change, status: 'pending', userId: null };
    return { ...change, status: 'open', userId: input.userId };
  }
  if (current.status === 'pending' && input.status === 'open') {
    return { status: 'open', userId: me, ...(input.queueId !== undefined ? { queueId: input.queueId } : {}) };
  }
  if (current.status === 'open' && input.status === 'pending') return { status: 'pending', userId: null };
  if (input.status !== undefined && input.status !== current.status) throw invalidTransition(current.status, input.status);
  const flags: TicketChange = {};
  // Handing the ticket to a bot is a plan feature; taking it away never is.
  if (input.promptId && input.promptId !== current.promptId) requireFeature(ctx, 'useOpenAi');
  if ((input.integrationId && input.integrationId !== current.integrationId) || (input.useIntegration === true && !current.useIntegration)) {
    requireFeature(ctx, 'useIntegrations');
  }
  if (input.promptId) await assertIdsInTenant(db, ctx, prompts, [input.promptId], 'ERR_NO_PROMPT_FOUND');
  if (input.integrationId) await assertIdsInTenant(db, ctx, queueIntegrations, [input.integrationId], 'ERR_NO_INTEGRATION_FOUND');
  if (input.useIntegration !== undefined) flags.useIntegration = input.useIntegration;
  if (input.promptId !== undefined) flags.promptId = input.promptId;
  if (input.integrationId !== undefined) flags.integrationId = input.integrationId;
  return flags;
}

/** The loser of a race: who has the ticket now (the winner, when it took or closed it) and the ticket as it is. */
function ticketConflict(code: 'ERR_TICKET_ALREADY_ACCEPTED' | 'ERR_TICKET_ALREADY_CLOSED' | 'ERR_TICKET_CHANGED', current: TicketDetail): AppError {
  return new AppError(code, undefined, { userName: current.user?.name ?? null, ticket: presentTicket(current) });
}

function isAsSeen(expected: ExpectedTicketState, current: TicketDetail): boolean {
  return expected.status === current.status && expected.userId === current.userId && expected.queueId === current.queueId;
}

/**
 * The state every action implies, checked whether or not the client said what it saw:
 * closing needs the ticket not closed by someone else; accepting or reopening (status
 * open for oneself) needs it not open with another agent. Taking another agent's open
 * ticket on purpose (a transfer to oneself) is told apart by the client's `expected`
 * (it saw that agent) or, from a spec client, by the transfer's new queue or connection.
 */
function checkImpliedState(ctx: RequestContext, current: TicketDetail, input: UpdateTicketInput): void {
  const me = ctx.user.id;
  if (input.status === 'closed' && current.status === 'closed' && current.userId !== me) throw ticketConflict('ERR_TICKET_ALREADY_CLOSED', current);
  const takes = input.status === 'open' && (input.userId === undefined || input.userId === null || input.userId === me);
  if (!takes || current.status !== 'open' || current.userId === null || current.userId === me) return;
  const moves = (input.queueId !== undefined && input.queueId !== current.queueId) || (input.whatsappId != null && input.whatsappId !== current.whatsappId);
  const onPurpose = input.expected ? isAsSeen(input.expected, current) : moves;
  if (!onPurpose) throw ticketConflict('ERR_TICKET_ALREADY_ACCEPTED', current);
}

const STATE_FIELDS = ['status', 'userId', 'queueId', 'whatsappId', 'useIntegration', 'promptId', 'integrationId'] as const;

/** The ticket is already as asked (the same agent's second click): nothing to write, no automation. */
function changesNothing(current: TicketDetail, change: TicketChange): boolean {
  return STATE_FIELDS.every((field) => !(field in change) || change[field] === current[field]);
}

/**
 * A change of status, agent, queue or connection (spec part 1 §4) as a compare-and-set
 * (ARCHITECTURE.md §3 rule 16): the ticket's row is locked, the change is decided on
 * what is committed and written in the same transaction, so two agents' accepts, two
 * closes or a transfer and an accept never both apply. The loser gets 409 with who has
 * the ticket now; the same agent asking again for what it already has gets 200 and
 * nothing happens. The automation (greeting, transfer notice, rating) runs only for
 * the change that was written.
 */
export async function updateTicket(deps: Pick<TicketsDeps, 'db' | 'events'>, ctx: RequestContext, id: number, input: UpdateTicketInput): Promise<TicketDetail> {
  const decided: { current?: TicketDetail; change?: TicketChange } = {};
  let ticket: TicketDetail | null;
  try {
    ticket = await deps.db.transaction(async (tx) => {
      if (!(await lockTicket(tx, ctx, id))) throw new AppError('ERR_NO_TICKET_FOUND');
      const current = await findTicketDetail(tx, ctx, id);
      if (!current) throw new AppError('ERR_NO_TICKET_FOUND');
      if (!canSeeTicket(ctx, current)) throw accessDenied();
      decided.current = current;
      checkImpliedState(ctx, current, input);
      const change = await planChange(tx, ctx, current, input);
      if (changesNothing(current, change)) return null;
      if (input.expected && !isAsSeen(input.expected, current)) throw ticketConflict('ERR_TICKET_CHANGED', current);
      decided.change = change;
      await updateTicketRow(tx, ctx, id, change);
      const updated = await findTicketDetail(tx, ctx, id);
      if (updated) await recordWebhookEvent(tx, ticketWebhookEvent(ctx.companyId, 'ticket.updated', updated));
      return updated;
    });
  } catch (error) {
    const { current, change } = decided;
    if (current && isUniqueViolation(error)) throw (await otherOpenTicket(deps.db, ctx, current.contactId, change?.whatsappId ?? current.whatsappId)) ?? error;
    throw error;
  }
  const current = decided.current;
  if (!current) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!ticket) return current;
  deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket, previous: current });
  // Greeting on accept, transfer notice, rating or goodbye on close (automation/ticket-lifecycle.ts); never fails the change.
  await deps.events.publish('ticket.changedByAgent', { ctx, previous: current, ticket });
  return ticket;
}

export async function deleteTicket(deps: Pick<TicketsDeps, 'db' | 'events'>, ctx: RequestContext, id: number): Promise<void> {
  const ticket = await findTicketDetail(deps.db, ctx, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  authorize(ctx, 'ticket-options:deleteTicket');
  await deps.db.transaction(async (tx) => {
    await deleteTicketRow(tx, ctx, id);
    await recordAudit(tx, ctx, { action: 'ticket.deleted', entityId: id, changes: { contactId: ticket.contactId, status: ticket.status, queueId: ticket.queueId, userId: ticket.userId } });
  });
  deps.events.emit('ticket.deleted', { companyId: ctx.companyId, ticket });
}

/** The most tickets one "close all" closes (the client may ask again for the rest). */
const CLOSE_ALL_LIMIT = 1000;

/**
 * `POST /tickets/closeAll` (whaticket v6's "close all" of the open or pending tab): each ticket
 * of that status the caller may close is closed as `PUT /tickets/:id` would (the same rules,
 * events and automation). v6 closes every ticket of the company with that status; here an admin
 * closes those of the company (in `queueIds` when named), a user its own open tickets, or the
 * pending ones it sees. A ticket someone else changed meanwhile is left as it is.
 */
export async function closeAllTickets(deps: Pick<TicketsDeps, 'db' | 'events'>, ctx: RequestContext, status: 'open' | 'pending', queueIds: number[] | null): Promise<{ closed: number }> {
  const candidates = await listTicketsByStatus(deps.db, ctx, status, queueIds && queueIds.length > 0 ? queueIds : null, CLOSE_ALL_LIMIT);
  const mine = candidates.filter((ticket) => canSeeTicket(ctx, ticket) && (ctx.user.profile === 'admin' || status === 'pending' || ticket.userId === ctx.user.id));
  let closed = 0;
  for (const ticket of mine) {
    try {
      await updateTicket(deps, ctx, ticket.id, { status: 'closed', expected: { status, userId: ticket.userId, queueId: ticket.queueId } });
      closed += 1;
    } catch (error) {
      if (!(error instanceof AppError) || error.statusCode >= 500) throw error;
    }
  }
  return { closed };
}
