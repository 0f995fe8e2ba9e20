import { DEFAULT_SCHEDULES, SLA_DEFAULT_WARN_PERCENT, type QueueBody, type QueueUpdateBody } from '@atende/shared';
import { changedFields, recordAudit, recordedFields } from '../../platform/audit/audit-log.js';
import { prompts, queueIntegrations, type QueueRow } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import { colorTaken, countQueues, deleteQueueRow, findQueue, insertQueue, listQueues, updateQueueRow, type QueueValues } from './queues.repo.js';

/** The queues module's ports: the database, the domain events, and `access` (a deleted queue leaves its users' sessions). */
export type QueuesDeps = Pick<Platform, 'db' | 'events' | 'access'>;

/** The queue fields the audit log names (long texts are cut there). */
const QUEUE_AUDITED = ['name', 'color', 'orderQueue', 'greetingMessage', 'outOfHoursMessage', 'ratingMessage', 'integrationId', 'promptId', 'schedules', 'autoAssign', 'defaultMaxOpenTickets', 'slaFirstResponseMinutes', 'slaResolutionMinutes', 'slaWarnPercent'] as const satisfies readonly (keyof QueueRow)[];

function isUniqueViolation(error: unknown): boolean {
  return [error, (error as { cause?: unknown }).cause].some((e) => (e as { code?: string } | undefined)?.code === '23505');
}

/** Everyone reads the company's queues (queue pickers), in the bot menu's order. */
export async function listCompanyQueues(deps: QueuesDeps, ctx: RequestContext): Promise<QueueRow[]> {
  return listQueues(deps.db, ctx);
}

export async function showQueue(deps: QueuesDeps, ctx: RequestContext, id: number): Promise<QueueRow> {
  const queue = await findQueue(deps.db, ctx, id);
  if (!queue) throw new AppError('ERR_NO_QUEUE_FOUND');
  return queue;
}

/** A queue may name an integration or a prompt only of its own company, and only when the plan has the feature. */
async function assertBots(deps: QueuesDeps, ctx: RequestContext, body: { integrationId?: number | null; promptId?: number | null }): Promise<void> {
  if (body.integrationId) {
    requireFeature(ctx, 'useIntegrations');
    await assertIdsInTenant(deps.db, ctx, queueIntegrations, [body.integrationId], 'ERR_NO_INTEGRATION_FOUND');
  }
  if (body.promptId) {
    requireFeature(ctx, 'useOpenAi');
    await assertIdsInTenant(deps.db, ctx, prompts, [body.promptId], 'ERR_NO_PROMPT_FOUND');
  }
}

/**
 * Queue modal (spec part 2 §2.3, §5): admins only; colour unique per company
 * (ERR_QUEUE_COLOR_ALREADY_EXISTS); the plan's queue limit (0 = none). A new
 * queue starts with the spec's default hours (§9).
 */
/** The queue's texts sent to customers: they may use the message variables. */
function queueTexts(texts: { greetingMessage?: string | null; outOfHoursMessage?: string | null; ratingMessage?: string | null }) {
  return { greetingMessage: texts.greetingMessage, outOfHoursMessage: texts.outOfHoursMessage, ratingMessage: texts.ratingMessage };
}

export async function createQueue(deps: QueuesDeps, ctx: RequestContext, body: QueueBody): Promise<QueueRow> {
  requireAdmin(ctx);
  const limit = ctx.company.plan.queues;
  if (limit > 0 && (await countQueues(deps.db, ctx)) >= limit) throw new AppError('ERR_QUEUE_LIMIT_REACHED');
  if (await colorTaken(deps.db, ctx, body.color)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  await assertBots(deps, ctx, body);
  assertKnownVariables(queueTexts(body));
  let queue: QueueRow | null;
  try {
    queue = await deps.db.transaction(async (tx) => {
      const inserted = await insertQueue(tx, ctx, {
        name: body.name,
        color: body.color,
        orderQueue: body.orderQueue ?? null,
        greetingMessage: body.greetingMessage,
        outOfHoursMessage: body.outOfHoursMessage,
        ratingMessage: body.ratingMessage,
        integrationId: body.integrationId ?? null,
        promptId: body.promptId ?? null,
        schedules: body.schedules ?? DEFAULT_SCHEDULES,
        autoAssign: body.autoAssign,
        defaultMaxOpenTickets: body.defaultMaxOpenTickets,
        slaFirstResponseMinutes: body.slaFirstResponseMinutes ?? null,
        slaResolutionMinutes: body.slaResolutionMinutes ?? null,
        slaWarnPercent: body.slaWarnPercent ?? SLA_DEFAULT_WARN_PERCENT,
      });
      if (inserted) await recordAudit(tx, ctx, { action: 'queue.created', entityId: inserted.id, changes: recordedFields(inserted, QUEUE_AUDITED) });
      return inserted;
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    throw error;
  }
  if (!queue) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  deps.events.emit('queue.saved', { companyId: ctx.companyId, action: 'create', queue });
  return queue;
}

export async function updateQueue(deps: QueuesDeps, ctx: RequestContext, id: number, body: QueueUpdateBody): Promise<QueueRow> {
  requireAdmin(ctx);
  const current = await showQueue(deps, ctx, id);
  assertKnownVariables(queueTexts(body), {}, queueTexts(current));
  if (body.color !== undefined && (await colorTaken(deps.db, ctx, body.color, id))) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
  // Only a change is checked: a queue keeps a bot it already had after the plan lost the feature.
  await assertBots(deps, ctx, {
    integrationId: body.integrationId !== current.integrationId ? body.integrationId : undefined,
    promptId: body.promptId !== current.promptId ? body.promptId : undefined,
  });
  const values: Partial<QueueValues> = {};
  for (const key of ['name', 'color', 'orderQueue', 'greetingMessage', 'outOfHoursMessage', 'ratingMessage', 'integrationId', 'promptId', 'schedules', 'autoAssign', 'defaultMaxOpenTickets', 'slaFirstResponseMinutes', 'slaResolutionMinutes', 'slaWarnPercent'] as const) {
    if (body[key] !== undefined) (values as Record<string, unknown>)[key] = body[key];
  }
  try {
    await deps.db.transaction(async (tx) => {
      await updateQueueRow(tx, ctx, id, values);
      await recordAudit(tx, ctx, { action: 'queue.updated', entityId: id, changes: changedFields(current, { ...current, ...values }, QUEUE_AUDITED) });
    });
  } catch (error) {
    if (isUniqueViolation(error)) throw new AppError('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    throw error;
  }
  const queue = await showQueue(deps, ctx, id);
  deps.events.emit('queue.saved', { companyId: ctx.companyId, action: 'update', queue });
  return queue;
}

/** Queue media also stores the file. */
export type QueueMediaDeps = QueuesDeps & Pick<Platform, 'media'>;

/**
 * `POST /queue/:id/media-upload` (whaticket v6's queue media): a file sent with the queue's
 * greeting when a ticket enters the queue. Admins only; a new file replaces the old one.
 */
export async function attachQueueMedia(deps: QueueMediaDeps, ctx: RequestContext, id: number, readFile: () => Promise<{ data: Buffer; fileName: string; mimeType: string }>): Promise<QueueRow> {
  requireAdmin(ctx);
  const previous = await showQueue(deps, ctx, id);
  const stored = await deps.media.save(ctx, await readFile());
  await deps.db.transaction(async (tx) => {
    await updateQueueRow(tx, ctx, id, { mediaPath: stored.path, mediaName: stored.name });
    await recordAudit(tx, ctx, { action: 'queue.updated', entityId: id, changes: { mediaName: { from: previous.mediaName, to: stored.name } } });
  });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return savedQueue(deps, ctx, id);
}

export async function removeQueueMedia(deps: QueueMediaDeps, ctx: RequestContext, id: number): Promise<QueueRow> {
  requireAdmin(ctx);
  const previous = await showQueue(deps, ctx, id);
  await deps.db.transaction(async (tx) => {
    await updateQueueRow(tx, ctx, id, { mediaPath: null, mediaName: null });
    await recordAudit(tx, ctx, { action: 'queue.updated', entityId: id, changes: { mediaName: { from: previous.mediaName, to: null } } });
  });
  if (previous.mediaPath) await deps.media.remove(ctx, previous.mediaPath);
  return savedQueue(deps, ctx, id);
}

async function savedQueue(deps: QueuesDeps, ctx: RequestContext, id: number): Promise<QueueRow> {
  const queue = await showQueue(deps, ctx, id);
  deps.events.emit('queue.saved', { companyId: ctx.companyId, action: 'update', queue });
  return queue;
}

/** Tickets of the queue keep going without it (they wait without a queue); users lose it from their queues. */
export async function deleteQueue(deps: QueueMediaDeps, ctx: RequestContext, id: number): Promise<void> {
  requireAdmin(ctx);
  const queue = await showQueue(deps, ctx, id);
  await deps.db.transaction(async (tx) => {
    await deleteQueueRow(tx, ctx, id);
    await recordAudit(tx, ctx, { action: 'queue.deleted', entityId: id, changes: recordedFields(queue, ['name', 'color']) });
  });
  if (queue.mediaPath) await deps.media.remove(ctx, queue.mediaPath);
  // Sessions and sockets carry the users' queue ids.
  await deps.access.changed({ companyId: ctx.companyId });
  deps.events.emit('queue.deleted', { companyId: ctx.companyId, queueId: id });
}
