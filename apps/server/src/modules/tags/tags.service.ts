import type { TagBody, TagListQuery, TagSyncBody, TagUpdateBody } from '@atende/shared';
import { tags } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';
import type { TicketDetail } from '../tickets/tickets.presenter.js';
import { recordTicketWebhookEvent, showTicket } from '../tickets/tickets.service.js';
import type { TagDetail } from './tags.presenter.js';
import { deleteTagRow, findTag, insertTag, listTagPage, listTagSummaries, replaceTicketTags, tagNameTaken, updateTagRow } from './tags.repo.js';

/** The ports the tags module uses: the database and the domain events (tags.events.ts publishes them). */
export type TagsDeps = Pick<Platform, 'db' | 'events'>;

/** The schema's default colour, for a tag saved without one. */
const DEFAULT_TAG_COLOR = tags.color.default as string;

function isUniqueViolation(error: unknown): boolean {
  return [error, (error as { cause?: unknown }).cause].some((e) => (e as { code?: string } | undefined)?.code === '23505');
}

/** The kanban toggle is the admins' (spec part 2 §6); turning it off or leaving it is anyone's. */
function assertMaySetKanban(ctx: RequestContext, kanban: number | undefined, current = 0): void {
  if (kanban !== undefined && kanban !== current && ctx.user.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
  // A lane of the kanban board is a plan feature; an existing lane may still be turned off.
  if (kanban === 1 && current !== 1) requireFeature(ctx, 'useKanban');
}

/** The tags page: 20 a page, searched by name. */
export async function listTags(deps: TagsDeps, ctx: RequestContext, query: TagListQuery) {
  return listTagPage(deps.db, ctx, query);
}

/** Every tag of the company, for pickers and the ticket's tag bar. */
export async function listTagOptions(deps: TagsDeps, ctx: RequestContext) {
  return listTagSummaries(deps.db, ctx);
}

/** The kanban board's lanes: one per tag marked kanban (a plan feature). */
export async function listKanbanLanes(deps: TagsDeps, ctx: RequestContext) {
  requireFeature(ctx, 'useKanban');
  return listTagSummaries(deps.db, ctx, { kanbanOnly: true });
}

export async function showTag(deps: TagsDeps, ctx: RequestContext, id: number): Promise<TagDetail> {
  const tag = await findTag(deps.db, ctx, id);
  if (!tag) throw new AppError('ERR_NO_TAG_FOUND');
  return tag;
}

/**
 * Tag names are unique in a company whatever their case ("VIP" and "vip" would
 * look the same on a ticket). `userId` is accepted for compatibility: the
 * creator is the caller.
 */
export async function createTag(deps: TagsDeps, ctx: RequestContext, body: TagBody): Promise<TagDetail> {
  assertMaySetKanban(ctx, body.kanban);
  if (await tagNameTaken(deps.db, ctx, body.name)) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS');
  const id = await insertTag(deps.db, ctx, {
    name: body.name,
    color: body.color || DEFAULT_TAG_COLOR,
    kanban: body.kanban ?? 0,
    userId: ctx.user.id,
  });
  if (id === null) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS');
  const tag = await showTag(deps, ctx, id);
  deps.events.emit('tag.saved', { companyId: ctx.companyId, action: 'create', tag });
  return tag;
}

export async function updateTag(deps: TagsDeps, ctx: RequestContext, id: number, body: TagUpdateBody): Promise<TagDetail> {
  const current = await showTag(deps, ctx, id);
  assertMaySetKanban(ctx, body.kanban, current.kanban);
  if (body.name !== undefined && (await tagNameTaken(deps.db, ctx, body.name, id))) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS');
  try {
    await updateTagRow(deps.db, ctx, id, { name: body.name, color: body.color || undefined, kanban: body.kanban });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_TAG_NAME_ALREADY_EXISTS');
    throw error;
  }
  const tag = await showTag(deps, ctx, id);
  deps.events.emit('tag.saved', { companyId: ctx.companyId, action: 'update', tag });
  return tag;
}

export async function deleteTag(deps: TagsDeps, ctx: RequestContext, id: number): Promise<void> {
  await showTag(deps, ctx, id);
  await deleteTagRow(deps.db, ctx, id);
  deps.events.emit('tag.deleted', { companyId: ctx.companyId, tagId: id });
}

/** Replaces a ticket's tags (the conversation's tag bar); lists showing the ticket are told. */
export async function syncTicketTags(deps: TagsDeps, ctx: RequestContext, body: TagSyncBody): Promise<TicketDetail> {
  await showTicket(deps, ctx, body.ticketId);
  const tagIds = body.tags.map((tag) => tag.id);
  await assertIdsInTenant(deps.db, ctx, tags, tagIds, 'ERR_NO_TAG_FOUND');
  await deps.db.transaction(async (tx) => {
    await replaceTicketTags(tx, ctx, body.ticketId, tagIds);
    await recordTicketWebhookEvent(tx, ctx, 'ticket.updated', body.ticketId);
  });
  const ticket = await findTicketDetail(deps.db, ctx, body.ticketId);
  if (!ticket) throw new AppError('ERR_NO_TICKET_FOUND');
  deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket });
  return ticket;
}
