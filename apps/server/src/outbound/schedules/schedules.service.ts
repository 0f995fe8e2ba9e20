import { SCHEDULE_MEDIA_EXTENSIONS, SCHEDULE_MEDIA_TYPES, type ScheduleBody, type ScheduleUpdateBody } from '@atende/shared';
import { and, asc, eq, inArray, isNull, lte, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { cancelSends, onOutboundSweep, onSendSettled, outboundRuntime, queueSends, wakeOutbound, type QueuedSend } from '../outbound.js';
import { contacts, outboundSends, schedules } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { requireFeature } from '../../platform/http/guards.js';
import { mediaTypeOf, type UploadedFile } from '../../platform/storage/media-storage.js';
import { connectionForContact, findSchedule, loadSchedules, resolveSendAt, type ScheduleDetail } from './schedules.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'schedule.saved': { companyId: number; action: 'create' | 'update'; schedule: ScheduleDetail };
    'schedule.deleted': { companyId: number; scheduleId: number };
  }
}

/** Every schedules route is behind the plan flag useSchedules (spec part 2 §6). */
export function requireSchedules(ctx: RequestContext): void {
  requireFeature(ctx, 'useSchedules');
}

async function existingContact(services: AppServices, scope: TenantScope, contactId: number): Promise<void> {
  const [row] = await services.db
    .select({ id: contacts.id })
    .from(contacts)
    .where(inTenant(contacts, scope, eq(contacts.id, contactId)))
    .limit(1);
  if (!row) throw new AppError('ERR_NO_CONTACT_FOUND');
}

export async function showSchedule(services: AppServices, ctx: RequestContext, id: number): Promise<ScheduleDetail> {
  const schedule = await findSchedule(services.db, ctx, id);
  if (!schedule) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  return schedule;
}

/** Sent or on its way: nothing about it may change any more. */
function assertEditable(schedule: ScheduleDetail): void {
  if (schedule.sentAt !== null || schedule.status === 'ENVIADA' || schedule.status === 'AGENDADA') throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
}

function saved(services: AppServices, scope: TenantScope, action: 'create' | 'update', schedule: ScheduleDetail): ScheduleDetail {
  services.events.emit('schedule.saved', { companyId: scope.companyId, action, schedule });
  return schedule;
}

export async function createSchedule(services: AppServices, ctx: RequestContext, body: ScheduleBody): Promise<ScheduleDetail> {
  await existingContact(services, ctx, body.contactId);
  const sendAt = await resolveSendAt(services.db, body.sendAt, ctx.company.timezone);
  const [row] = await services.db
    .insert(schedules)
    .values({ companyId: ctx.companyId, body: body.body, contactId: body.contactId, userId: ctx.user.id, sendAt })
    .returning({ id: schedules.id });
  if (!row) throw new AppError('ERR_NO_SCHEDULE_FOUND');
  const schedule = saved(services, ctx, 'create', await showSchedule(services, ctx, row.id));
  if (sendAt.getTime() <= outboundRuntime(services).now().getTime()) await queueDueSchedules(services);
  return (await findSchedule(services.db, ctx, row.id)) ?? schedule;
}

/**
 * Edits a schedule not yet sent. One that failed (ERRO) goes back to PENDENTE
 * with its failed send forgotten, so it is submitted again at its time.
 */
export async function updateSchedule(services: AppServices, ctx: RequestContext, id: number, body: ScheduleUpdateBody): Promise<ScheduleDetail> {
  const current = await showSchedule(services, ctx, id);
  assertEditable(current);
  if (body.contactId !== undefined) await existingContact(services, ctx, body.contactId);
  const sendAt = body.sendAt !== undefined ? await resolveSendAt(services.db, body.sendAt, ctx.company.timezone) : undefined;
  const changed = await services.db.transaction(async (tx) => {
    const [row] = await tx
      .update(schedules)
      .set({
        ...(body.body !== undefined ? { body: body.body } : {}),
        ...(body.contactId !== undefined ? { contactId: body.contactId } : {}),
        ...(sendAt ? { sendAt } : {}),
        status: 'PENDENTE',
        reason: null,
        updatedAt: new Date(),
      })
      .where(inTenant(schedules, ctx, eq(schedules.id, id), isNull(schedules.sentAt), inArray(schedules.status, ['PENDENTE', 'ERRO'])))
      .returning({ id: schedules.id });
    if (!row) return false;
    await forgetUnsentSends(tx, ctx, id);
    return true;
  });
  if (!changed) throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
  const schedule = saved(services, ctx, 'update', await showSchedule(services, ctx, id));
  if (schedule.sendAt.getTime() <= outboundRuntime(services).now().getTime()) await queueDueSchedules(services);
  return (await findSchedule(services.db, ctx, id)) ?? schedule;
}

/** A failed or cancelled send of a schedule that goes back to PENDENTE is removed (it was never delivered). */
async function forgetUnsentSends(tx: Parameters<Parameters<AppServices['db']['transaction']>[0]>[0], scope: TenantScope, scheduleId: number): Promise<void> {
  await tx
    .delete(outboundSends)
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, 'schedule'), eq(outboundSends.sourceId, scheduleId), inArray(outboundSends.state, ['failed', 'cancelled'])),
    );
}

export async function deleteSchedule(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  const schedule = await showSchedule(services, ctx, id);
  await services.db.transaction(async (tx) => {
    // Not yet claimed: it will not go. A send already in flight finishes (its record stays as history).
    await cancelSends(tx, ctx, 'schedule', id);
    await tx.delete(schedules).where(inTenant(schedules, ctx, eq(schedules.id, id)));
  });
  // Once handed to the engine (sent, sending or failed) its image is also the ticket message's: the file stays.
  const unsent = schedule.sentAt === null && schedule.status === 'PENDENTE';
  if (schedule.mediaPath && unsent) await services.media.remove(ctx, schedule.mediaPath).catch(() => undefined);
  services.events.emit('schedule.deleted', { companyId: ctx.companyId, scheduleId: id });
}

function isAllowedImage(file: UploadedFile): boolean {
  const name = file.fileName.toLowerCase();
  return SCHEDULE_MEDIA_EXTENSIONS.some((ext) => name.endsWith(ext)) && (SCHEDULE_MEDIA_TYPES as readonly string[]).includes(file.mimeType.toLowerCase());
}

export async function attachScheduleMedia(services: AppServices, ctx: RequestContext, id: number, readFile: () => Promise<UploadedFile>): Promise<ScheduleDetail> {
  const current = await showSchedule(services, ctx, id);
  assertEditable(current);
  const file = await readFile();
  if (!isAllowedImage(file)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['.png, .jpg, .jpeg'] } });
  const stored = await services.media.save(ctx, file);
  const [row] = await services.db
    .update(schedules)
    .set({ mediaPath: stored.path, mediaName: stored.name, mediaMime: stored.mimeType, mediaSize: stored.size, updatedAt: new Date() })
    .where(inTenant(schedules, ctx, eq(schedules.id, id), isNull(schedules.sentAt), inArray(schedules.status, ['PENDENTE', 'ERRO'])))
    .returning({ id: schedules.id });
  if (!row) {
    await services.media.remove(ctx, stored.path).catch(() => undefined);
    throw new AppError('ERR_SCHEDULE_ALREADY_SENT');
  }
  if (current.mediaPath) await services.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(services, ctx, 'update', await showSchedule(services, ctx, id));
}

export async function removeScheduleMedia(services: AppServices, ctx: RequestContext, id: number): Promise<ScheduleDetail> {
  const current = await showSchedule(services, ctx, id);
  assertEditable(current);
  await services.db
    .update(schedules)
    .set({ mediaPath: null, mediaName: null, mediaMime: null, mediaSize: null, updatedAt: new Date() })
    .where(inTenant(schedules, ctx, eq(schedules.id, id)));
  if (current.mediaPath) await services.media.remove(ctx, current.mediaPath).catch(() => undefined);
  return saved(services, ctx, 'update', await showSchedule(services, ctx, id));
}

// ---- Sending, through the outbound engine ----

/**
 * Due schedules (PENDENTE, sendAt passed) become AGENDADA and get their send
 * record, in one transaction (a crash leaves both or neither). One older than the
 * overdue limit (the server was down that long) becomes ERRO with
 * ERR_SCHEDULE_EXPIRED instead. Runs on every engine sweep and when a schedule
 * is saved already due.
 */
export async function queueDueSchedules(services: AppServices): Promise<void> {
  const runtime = outboundRuntime(services);
  const now = runtime.now();
  const expiredBefore = new Date(now.getTime() - runtime.overdueLimitMs);
  const touched: { companyId: number; id: number }[] = [];
  const wake = new Map<number, Set<number>>();
  await services.db.transaction(async (tx) => {
    const due = await tx
      .select({ schedule: schedules, number: contacts.number })
      .from(schedules)
      .innerJoin(contacts, eq(contacts.id, schedules.contactId))
      .where(and(eq(schedules.status, 'PENDENTE'), lte(schedules.sendAt, now)))
      .orderBy(asc(schedules.sendAt), asc(schedules.id))
      .limit(500)
      .for('update', { of: schedules, skipLocked: true });
    const sends: { scope: TenantScope; send: QueuedSend }[] = [];
    for (const { schedule, number } of due) {
      const scope: TenantScope = { companyId: schedule.companyId };
      touched.push({ companyId: schedule.companyId, id: schedule.id });
      if (schedule.sendAt < expiredBefore) {
        await tx.update(schedules).set({ status: 'ERRO', reason: 'ERR_SCHEDULE_EXPIRED', updatedAt: now }).where(eq(schedules.id, schedule.id));
        continue;
      }
      const whatsappId = await connectionForContact(tx, scope, schedule.contactId);
      if (whatsappId === null) {
        await tx.update(schedules).set({ status: 'ERRO', reason: 'ERR_NO_DEF_WAPP_FOUND', updatedAt: now }).where(eq(schedules.id, schedule.id));
        continue;
      }
      await tx.update(schedules).set({ status: 'AGENDADA', reason: null, whatsappId, updatedAt: now }).where(eq(schedules.id, schedule.id));
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
          // With an image, the text is its caption (one message), as an agent's send with a file.
          items: [{ body: schedule.body, ...(media ? { media } : {}) }],
          details: { userId: schedule.userId },
        },
      });
      wake.set(schedule.companyId, (wake.get(schedule.companyId) ?? new Set()).add(whatsappId));
    }
    for (const { scope, send } of sends) await queueSends(tx, scope, [send]);
  });
  await publishSchedules(services, touched);
  for (const [companyId, ids] of wake) await wakeOutbound(services, { companyId }, [...ids]);
}

async function publishSchedules(services: AppServices, touched: { companyId: number; id: number }[]): Promise<void> {
  const byCompany = new Map<number, number[]>();
  for (const { companyId, id } of touched) byCompany.set(companyId, [...(byCompany.get(companyId) ?? []), id]);
  for (const [companyId, ids] of byCompany) {
    for (const schedule of await loadSchedules(services.db, { companyId }, ids)) services.events.emit('schedule.saved', { companyId, action: 'update', schedule });
  }
}

/** Schedules follow their sends: sent → ENVIADA with sentAt and the ticket; failed → ERRO with the reason. */
export function registerScheduleSending(services: AppServices): void {
  onOutboundSweep(services, () => queueDueSchedules(services));
  onSendSettled(services, 'schedule', async (tx, settled) => {
    const now = outboundRuntime(services).now();
    const touched: { companyId: number; id: number }[] = [];
    for (const send of settled) {
      const sent = send.state === 'sent' || send.state === 'delivered';
      const [row] = await tx
        .update(schedules)
        .set(
          sent
            ? { status: 'ENVIADA', reason: null, sentAt: sql`coalesce(${schedules.sentAt}, ${now.toISOString()}::timestamptz)`, ticketId: send.ticketId, updatedAt: now }
            : { status: 'ERRO', reason: send.reason ?? 'ERR_SENDING_WAPP_MSG', updatedAt: now },
        )
        .where(inTenant(schedules, send, eq(schedules.id, send.sourceId), sent ? undefined : isNull(schedules.sentAt)))
        .returning({ id: schedules.id });
      if (row) touched.push({ companyId: send.companyId, id: row.id });
    }
    return () => {
      publishSchedules(services, touched).catch((error: unknown) => outboundRuntime(services).logger.error({ err: error }, 'schedule update not published'));
    };
  });
}
