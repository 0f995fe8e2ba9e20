import { and, asc, desc, eq } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { afterAgentChange } from '../../automation/ticket-lifecycle.js';
import { contacts, prompts, queueIntegrations, queues, tickets, users, whatsapps } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize, requireFeature } from '../../platform/http/guards.js';
import { presentTicket, type TicketDetail } from './tickets.presenter.js';
import { canSeeTicket, findActiveTicket, findTicketDetail } from './tickets.repo.js';

export const ACCESS_DENIED = 'Acesso não permitido';

function accessDenied(): AppError {
  return new AppError('ERR_NO_PERMISSION', undefined, { message: ACCESS_DENIED });
}

/** A ticket of the caller's company it may open: another company's is 404, outside its queues 403. */
export async function showTicket(services: AppServices, ctx: RequestContext, id: number): Promise<TicketDetail> {
  const ticket = await findTicketDetail(services.db, ctx, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  if (!canSeeTicket(ctx, ticket)) throw accessDenied();
  return ticket;
}

function isUniqueViolation(error: unknown): boolean {
  const code = (error as { code?: string; cause?: { code?: string } }).code ?? (error as { cause?: { code?: string } }).cause?.code;
  return code === '23505';
}

async function otherOpenTicket(services: AppServices, ctx: RequestContext, contactId: number, whatsappId: number | null) {
  const existing = await findActiveTicket(services.db, ctx, contactId, whatsappId);
  if (!existing) return null;
  const detail = await findTicketDetail(services.db, ctx, existing.id);
  return new AppError('ERR_OTHER_OPEN_TICKET', undefined, detail ? { ticket: presentTicket(detail) } : {});
}

/** The connection a new ticket uses: the one asked for, the user's, the default, or the first. */
async function pickConnection(services: AppServices, ctx: RequestContext, requested: number | null | undefined): Promise<number> {
  if (requested) {
    await assertIdsInTenant(services.db, ctx, whatsapps, [requested], 'ERR_NO_WAPP_FOUND');
    return requested;
  }
  const [own] = await services.db
    .select({ whatsappId: users.whatsappId })
    .from(users)
    .where(and(eq(users.companyId, ctx.companyId), eq(users.id, ctx.user.id)));
  if (own?.whatsappId) return own.whatsappId;
  const [fallback] = await services.db
    .select({ id: whatsapps.id })
    .from(whatsapps)
    .where(eq(whatsapps.companyId, ctx.companyId))
    .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
    .limit(1);
  if (!fallback) throw new AppError('ERR_NO_DEF_WAPP_FOUND');
  return fallback.id;
}

async function assertQueueAllowed(services: AppServices, ctx: RequestContext, queueId: number | null | undefined): Promise<void> {
  if (queueId === null || queueId === undefined) {
    // New-ticket rule (spec part 1 §5): a queue is required unless the user is an admin.
    if (ctx.user.profile !== 'admin') {
      throw new AppError('ERR_VALIDATION', undefined, { message: 'Select a queue', fields: { queueId: ['Select a queue'] } });
    }
    return;
  }
  await assertIdsInTenant(services.db, ctx, queues, [queueId], 'ERR_NO_QUEUE_FOUND');
  if (ctx.user.profile !== 'admin' && !ctx.user.queueIds.includes(queueId)) throw new AppError('ERR_NO_PERMISSION');
}

export interface CreateTicketInput {
  contactId: number;
  queueId?: number | null;
  whatsappId?: number | null;
  status?: 'open' | 'pending';
}

export async function createTicket(services: AppServices, ctx: RequestContext, input: CreateTicketInput): Promise<TicketDetail> {
  await assertIdsInTenant(services.db, ctx, contacts, [input.contactId], 'ERR_NO_CONTACT_FOUND');
  await assertQueueAllowed(services, ctx, input.queueId);
  const whatsappId = await pickConnection(services, ctx, input.whatsappId);
  const conflict = await otherOpenTicket(services, ctx, input.contactId, whatsappId);
  if (conflict) throw conflict;
  const status = input.status ?? 'open';
  let id: number;
  try {
    const [created] = await services.db
      .insert(tickets)
      .values({
        companyId: ctx.companyId,
        contactId: input.contactId,
        whatsappId,
        queueId: input.queueId ?? null,
        status,
        userId: status === 'open' ? ctx.user.id : null,
      })
      .returning({ id: tickets.id });
    if (!created) throw new AppError('ERR_CREATING_TICKET');
    id = created.id;
  } catch (error) {
    // Lost a race with an incoming message that opened one first.
    if (isUniqueViolation(error)) throw (await otherOpenTicket(services, ctx, input.contactId, whatsappId)) ?? error;
    throw error;
  }
  const ticket = await findTicketDetail(services.db, ctx, id);
  if (!ticket) throw new AppError('ERR_CREATING_TICKET');
  services.events.emit('ticket.updated', { companyId: ctx.companyId, ticket });
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
}

type TicketChange = Partial<typeof tickets.$inferInsert>;

function invalidTransition(from: string, to: string | undefined): AppError {
  return new AppError('ERR_VALIDATION', undefined, { message: `A ${from} ticket cannot become ${to ?? 'that'}`, fields: { status: ['Invalid status change'] } });
}

/**
 * The ticket state table of spec part 1 §4: accept, return, close, reopen and
 * transfer. Returns the column changes; the caller persists them.
 */
async function planChange(services: AppServices, ctx: RequestContext, current: TicketDetail, input: UpdateTicketInput): Promise<TicketChange> {
  const me = ctx.user.id;
  if (input.status === 'closed') {
    if (current.status === 'closed') throw invalidTransition('closed', 'closed');
    return { status: 'closed', userId: me, closedAt: new Date(), useIntegration: false, promptId: null, integrationId: null, unreadMessages: 0 };
  }
  if (current.status === 'closed') {
    if (input.status !== 'open') throw invalidTransition('closed', input.status);
    const conflict = await otherOpenTicket(services, ctx, current.contactId, current.whatsappId);
    if (conflict) throw conflict;
    return { status: 'open', userId: me, closedAt: null };
  }

  const queueChanges = input.queueId !== undefined && input.queueId !== current.queueId;
  const connectionChanges = input.whatsappId !== undefined && input.whatsappId !== null && input.whatsappId !== current.whatsappId;
  const userChanges = input.userId !== undefined && input.userId !== null && input.userId !== current.userId && input.userId !== me;
  if (queueChanges || connectionChanges || userChanges) {
    if (input.queueId) await assertIdsInTenant(services.db, ctx, queues, [input.queueId], 'ERR_NO_QUEUE_FOUND');
    if (input.userId) await assertIdsInTenant(services.db, ctx, users, [input.userId], 'ERR_NO_USER_FOUND');
    const change: TicketChange = { queueId: input.queueId === undefined ? current.queueId : input.queueId };
    if (connectionChanges && input.whatsappId) {
      await assertIdsInTenant(services.db, ctx, whatsapps, [input.whatsappId], 'ERR_NO_WAPP_FOUND');
      const conflict = await otherOpenTicket(services, ctx, current.contactId, input.whatsappId);
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
  if (input.promptId) await assertIdsInTenant(services.db, ctx, prompts, [input.promptId], 'ERR_NO_PROMPT_FOUND');
  if (input.integrationId) await assertIdsInTenant(services.db, ctx, queueIntegrations, [input.integrationId], 'ERR_NO_INTEGRATION_FOUND');
  if (input.useIntegration !== undefined) flags.useIntegration = input.useIntegration;
  if (input.promptId !== undefined) flags.promptId = input.promptId;
  if (input.integrationId !== undefined) flags.integrationId = input.integrationId;
  return flags;
}

export async function updateTicket(services: AppServices, ctx: RequestContext, id: number, input: UpdateTicketInput): Promise<TicketDetail> {
  const current = await showTicket(services, ctx, id);
  const change = await planChange(services, ctx, current, input);
  try {
    await services.db
      .update(tickets)
      .set({ ...change, updatedAt: new Date() })
      .where(and(eq(tickets.companyId, ctx.companyId), eq(tickets.id, id)));
  } catch (error) {
    if (isUniqueViolation(error)) throw (await otherOpenTicket(services, ctx, current.contactId, change.whatsappId ?? current.whatsappId)) ?? error;
    throw error;
  }
  const ticket = await findTicketDetail(services.db, ctx, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  services.events.emit('ticket.updated', { companyId: ctx.companyId, ticket, previous: current });
  // Greeting on accept, transfer notice, rating or goodbye on close (issue 6); never fails the change.
  await afterAgentChange(services, ctx, current, ticket);
  return ticket;
}

export async function deleteTicket(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  const ticket = await findTicketDetail(services.db, ctx, id);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  authorize(ctx, 'ticket-options:deleteTicket');
  await services.db.delete(tickets).where(and(eq(tickets.companyId, ctx.companyId), eq(tickets.id, id)));
  services.events.emit('ticket.deleted', { companyId: ctx.companyId, ticket });
}
