import { SCHEDULE_MEDIA_EXTENSIONS, SCHEDULE_MEDIA_TYPES, type ScheduleBody, type ScheduleListQuery, type ScheduleUpdateBody } from '@atende/shared';
import type { Tx } from '../../platform/db/client.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { mediaTypeOf, type UploadedFile } from '../../platform/storage/media-storage.js';
import { assertKnownVariables } from '../../modules/messages/message-variables.js';
import { wakeOutbound, type OutboundEngine, type QueuedSend, type SettledSend } from '../outbound-engine.js';
import { cancelSends, forgetSends, queueSends } from '../outbound.repo.js';
import {
  attachUnsentScheduleMedia,
  clearScheduleMedia,
  connectionForContact,
  contactExists,
  deleteScheduleRow,
  findSchedule,
  insertSchedule,
  listSchedules,
  loadSchedules,
  lockDueSchedules,
  markDueSchedule,
  resolveSendAt,
  settleSchedule,
  updateUnsentSchedule,
  type ScheduleDetail,
} from './schedules.repo.js';

/** What schedules use: the database, events, media, and the outbound engine they send through. */
export type SchedulesDeps = Pick<Platform, 'db' | 'events' | 'media' | 'jobs'> & { outbound: OutboundEngine };

/** Every schedules route is behind the plan flag useSchedules (spec part 2 §6). */
export function requireSchedules(ctx: RequestContext): void {
  requireFeature(ctx, 'useSchedules');
}

async function existingContact(deps: SchedulesDeps, scope: TenantScope, contactId: number): Promise<void> {
  if (!(await contactExists(deps.db, scope, contactId))) throw new AppError('ERR_NO_CONTACT_FOUND');
}

export async function listSchedulePage(deps: SchedulesDeps, ctx: RequestContext, query: ScheduleListQuery) {
  return listSchedules(deps.db, ctx, query);
}

export async function showSchedule(deps: SchedulesDeps, ctx: RequestContext, id: number): Promise<ScheduleDetail> {
  const schedule = await findSchedule(deps.db, ctx, id);
  if (!schedule) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return schedule;
}

/** Sent or on its way: nothing about it may change any more. */
function assertEditable(schedule: ScheduleDetail): void {
  if (schedule.sentAt !== null || schedule.status === 'ENVIADA' || schedule.status === 'AGENDADA') throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
}

function saved(deps: SchedulesDeps, scope: TenantScope, action: 'create' | 'update', schedule: ScheduleDetail): ScheduleDetail {
  deps.events.emit('schedule.saved', { companyId: scope.companyId, action, schedule });
  return schedule;
}

export async function createSchedule(deps: SchedulesDeps, ctx: RequestContext, body: ScheduleBody): Promise<ScheduleDetail> {
  assertKnownVariables({ body: body.body });
  await existingContact(deps, ctx, body.contactId);
  const sendAt = await resolveSendAt(deps.db, body.sendAt, ctx.company.timezone);
  const id = await insertSchedule(deps.db, ctx, { body: body.body, contactId: body.contactId, userId: ctx.user.id, sendAt });
  if (id === null) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  const schedule = saved(deps, ctx, 'create', await showSchedule(deps, ctx, id));
  if (sendAt.getTime() <= deps.outbound.runtime.now().getTime()) await queueDueSchedules(deps);
  return (await findSchedule(deps.db, ctx, id)) ?? schedule;
}

/**
 * Edits a schedule not yet sent. One that failed (ERRO) goes back to PENDENTE
 * with its failed send forgotten, so it is submitted again at its time.
 */
export async function updateSchedule(deps: SchedulesDeps, ctx: RequestContext, id: number, body: ScheduleUpdateBody): Promise<ScheduleDetail> {
  const current = await showSchedule(deps, ctx, id);
  assertEditable(current);
  assertKnownVariables({ body: body.body }, {}, { body: current.body });
  if (body.contactId !== undefined) await existingContact(deps, ctx, body.contactId);
  const sendAt = body.sendAt !== undefined ? await resolveSendAt(deps.db, body.sendAt, ctx.company.timezone) : undefined;
  const changed = await deps.db.transaction(async (tx) => {
    const columns = {
      ...(body.body !== undefined ? { body: body.body } : {}),
      ...(body.contactId !== undefined ? { contactId: body.contactId } : {}),
      ...(sendAt ? { sendAt } : {}),
    };
    if (!(await updateUnsentSchedule(tx, ctx, id, columns))) return false;
    // A failed or cancelled send of it is removed (it was never delivered).
    await forgetSends(tx, ctx, 'schedule', id, ['failed', 'cancelled']);
    return true;
  });
  if (!changed) throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
  const schedule = saved(deps, ctx, 'update', await showSchedule(deps, ctx, id));
  if (schedule.sendAt.getTime() <= deps.outbound.runtime.now().getTime()) await queueDueSchedules(deps);
  return (await findSchedule(deps.db, ctx, id)) ?? schedule;
}

export async function deleteSchedule(deps: SchedulesDeps, ctx: RequestContext, id: number): Promise<void> {
  const schedule = await showSchedule(deps, ctx, id);
  await deps.db.transaction(async (tx) => {
    // Not yet claimed: it will not go. A send already in flight finishes (its record stays as history).
    await cancelSends(tx, ctx, 'schedule', id);
    await deleteScheduleRow(tx, ctx, id);
  });
  // Once handed to the engine (sent, sending or failed) its image is also the ticket message's: the file stays.
  const unsent = schedule.sentAt === null && schedule.status === 'PENDENTE';
  if (schedule.mediaPath && unsent) await deps.media.remove(ctx, schedule.mediaPath).catch(() => undefined);
  deps.events.emit('schedule.deleted', { companyId: ctx.companyId, scheduleId: id });
}

function isAllowedImage(file: UploadedFile): boolean {
  const name = file.fileName.toLowerCase();
  return SCHEDULE_MEDIA_EXTENSIONS.some((ext) => name.endsWith(ext)) && (SCHEDULE_MEDIA_TYPES as readonly string[]).includes(file.mimeType.toLowerCase());
}

export async function attachScheduleMedia(deps: SchedulesDeps, ctx: RequestContext, id: number, readFile: () => Promise<UploadedFile>): Promise<ScheduleDetail> {
  const current = await showSchedule(deps, ctx, id);
  assertEditable(current);
  const file = await readFile();
  if (!isAllowedImage(file)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['.png, .jpg, .jpeg'] } });
  const stored = await deps.media.save(ctx, file);
  if (!(await attachUnsentScheduleMedia(deps.db, ctx, id, stored))) {
    await deps.media.remove(ctx, stored.path).catch(() => undefined);
    throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
  }
  if (current.mediaPath) await deps.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(deps, ctx, 'update', await showSchedule(deps, ctx, id));
}

export async function removeScheduleMedia(deps: SchedulesDeps, ctx: RequestContext, id: number): Promise<ScheduleDetail> {
  const current = await showSchedule(deps, ctx, id);
  assertEditable(current);
  await clearScheduleMedia(deps.db, ctx, id);
  if (current.mediaPath) await deps.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(deps, ctx, 'update', await showSchedule(deps, ctx, id));
}

// ---- Sending, through the outbound engine ----

/**
 * Due schedules (PENDENTE, sendAt passed) become AGENDADA and get their send
 * record, in one transaction (a crash leaves both or neither). One older than the
 * overdue limit (the server was down that long) becomes ERRO with
 * ERR_SCHEDULE_EXPIRED instead. Runs on every engine sweep and when a schedule
 * is saved already due.
 */
export async function queueDueSchedules(deps: SchedulesDeps): Promise<void> {
  const { runtime } = deps.outbound;
  const now = runtime.now();
  const expiredBefore = new Date(now.getTime() - runtime.overdueLimitMs);
  const touched: { companyId: number; id: number }[] = [];
  const wake = new Map<number, Set<number>>();
  await deps.db.transaction(async (tx) => {
    const due = await lockDueSchedules(tx, now);
    const sends: { scope: TenantScope; send: QueuedSend }[] = [];
    for (const { schedule, number } of due) {
      const scope: TenantScope = { companyId: schedule.companyId };
      touched.push({ companyId: schedule.companyId, id: schedule.id });
      if (schedule.sendAt < expiredBefore) {
        await markDueSchedule(tx, schedule.id, { status: 'ERRO', reason: 'ERR_SCHEDULE_EXPIRED' }, now);
        continue;
      }
      const whatsappId = await connectionForContact(tx, scope, schedule.contactId);
      if (whatsappId === null) {
        await markDueSchedule(tx, schedule.id, { status: 'ERRO', reason: 'ERR_NO_DEF_WAPP_FOUND' }, now);
        continue;
      }
      await markDueSchedule(tx, schedule.id, { status: 'AGENDADA', whatsappId }, now);
      const media = schedule.mediaPath
        ? {
            path: schedule.mediaPath,
            name: schedule.mediaName ?? 'image',
            mimeType: schedule.mediaMime ?? 'image/jpeg',
            mediaType: mediaTypeOf(schedule.mediaMime ?? 'image/jpeg'),
            size: schedule.mediaSize ?? 0,
          }
        : undefined;
      sends.push({
        scope,
        send: {
          kind: 'schedule',
          sourceId: schedule.id,
          recipient: `contact:${schedule.contactId}`,
          whatsappId,
          contactId: schedule.contactId,
          number,
          conversation: true,
          // With an image, the text is its caption (one message), as an agent's send with a file. Its variables
          // are filled when it goes out, for the contact and the ticket it goes into.
          items: [{ body: schedule.body, template: {}, ...(media ? { media } : {}) }],
          details: { userId: schedule.userId },
        },
      });
      wake.set(schedule.companyId, (wake.get(schedule.companyId) ?? new Set()).add(whatsappId));
    }
    for (const { scope, send } of sends) await queueSends(tx, scope, [send]);
  });
  await publishSchedules(deps, touched);
  for (const [companyId, ids] of wake) await wakeOutbound(deps, { companyId }, [...ids]);
}

async function publishSchedules(deps: SchedulesDeps, touched: { companyId: number; id: number }[]): Promise<void> {
  const byCompany = new Map<number, number[]>();
  for (const { companyId, id } of touched) byCompany.set(companyId, [...(byCompany.get(companyId) ?? []), id]);
  for (const [companyId, ids] of byCompany) {
    for (const schedule of await loadSchedules(deps.db, { companyId }, ids)) deps.events.emit('schedule.saved', { companyId, action: 'update', schedule });
  }
}

/**
 * Schedules follow their sends (in the settle's transaction): sent → ENVIADA with
 * sentAt and the ticket; failed → ERRO with the reason. The changed schedules are
 * published after the commit.
 */
export async function followScheduleSends(deps: SchedulesDeps, tx: Tx, settled: SettledSend[]): Promise<() => void> {
  const now = deps.outbound.runtime.now();
  const touched: { companyId: number; id: number }[] = [];
  for (const send of settled) {
    const sent = send.state === 'sent' || send.state === 'delivered';
    if (await settleSchedule(tx, send, sent, now)) touched.push({ companyId: send.companyId, id: send.sourceId });
  }
  return () => {
    publishSchedules(deps, touched).catch((error: unknown) => deps.outbound.runtime.logger.error({ err: error }, 'schedule update not published'));
  };
}
