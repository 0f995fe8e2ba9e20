import { addToCalendarDate, startOfDayIn } from '@atende/shared';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { resolveRange } from '../dashboard/dashboard.policy.js';
import type { DashboardQuery } from '../dashboard/dashboard.schemas.js';
import { recordWebhookEvent } from '../webhooks/webhook-outbox.js';
import { addBusinessMinutes } from './business-time.js';
import { presentSlaBreach } from './sla.presenter.js';
import {
  breachRecipients,
  clocksToStart,
  dropOrphanClocks,
  dueBreaches,
  findBreach,
  insertBreach,
  listBreachesFor,
  slaTallies,
  writeClockDues,
  type BreachDetail,
  type ClockToStart,
  type SlaTallyRow,
} from './sla.repo.js';

export type SlaDeps = Pick<Platform, 'db' | 'events' | 'clock' | 'logger'>;

/** Tickets handled per sweep step; a sweep repeats a step while it finds a full batch. */
const BATCH = 200;
const MAX_ROUNDS = 20;
/** How far back the bell looks for the user's breaches, and how many it shows. */
const BELL_DAYS = 7;
const BELL_LIMIT = 20;

function duesOf(clock: ClockToStart) {
  const due = (minutes: number | null) => (minutes === null ? null : addBusinessMinutes(clock.startedAt, minutes, clock.schedules, clock.timeZone));
  const warn = (minutes: number | null) => (minutes === null ? null : addBusinessMinutes(clock.startedAt, (minutes * clock.warnPercent) / 100, clock.schedules, clock.timeZone));
  return {
    firstResponseDueAt: due(clock.firstResponseMinutes),
    firstResponseWarnAt: warn(clock.firstResponseMinutes),
    resolutionDueAt: due(clock.resolutionMinutes),
    resolutionWarnAt: warn(clock.resolutionMinutes),
  };
}

/**
 * The SLA sweep (job `sla.sweep`): writes the due instants of clocks the database started
 * (a ticket entering a queue or reopened), then records each target past its due instant
 * once (the unique index decides between nodes and retried runs) and tells its agent and
 * the queue's admins. Idempotent: a run a dead node held runs again with the same result.
 */
export async function sweepSla(deps: SlaDeps, now: Date): Promise<{ started: number; breached: number }> {
  let started = 0;
  let breached = 0;
  await dropOrphanClocks(deps.db);
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const clocks = await clocksToStart(deps.db, BATCH);
    for (const clock of clocks) {
      await writeClockDues(deps.db, { companyId: clock.companyId }, clock.id, clock.startedAt, duesOf(clock));
      started += 1;
    }
    if (clocks.length < BATCH) break;
  }
  for (let round = 0; round < MAX_ROUNDS; round += 1) {
    const due = await dueBreaches(deps.db, now, BATCH);
    for (const breach of due) {
      const scope: TenantScope = { companyId: breach.companyId };
      try {
        // The breach and its `sla.breached` webhook events commit together (the outbox: one of them is never without the other).
        const detail = await deps.db.transaction(async (tx) => {
          const id = await insertBreach(tx, scope, breach, now);
          if (id === null) return null;
          const found = await findBreach(tx, scope, id);
          if (found) await recordWebhookEvent(tx, { companyId: breach.companyId, event: 'sla.breached', orderingKey: `ticket:${breach.ticketId}`, data: () => presentSlaBreach(found) });
          return found;
        });
        if (!detail) continue;
        breached += 1;
        const recipients = await breachRecipients(deps.db, scope, breach.queueId, breach.userId);
        deps.events.emit('sla.breached', { companyId: breach.companyId, breach: detail, recipients });
      } catch (error) {
        deps.logger.error({ err: error, ticketId: breach.ticketId, kind: breach.kind }, 'sla: breach not recorded');
      }
    }
    if (due.length < BATCH) break;
  }
  return { started, breached };
}

/** `GET /sla/breaches`: what the bell lists, the last week's breaches the user was told of. */
export async function listMyBreaches(deps: Pick<SlaDeps, 'db' | 'clock'>, ctx: RequestContext): Promise<BreachDetail[]> {
  const since = new Date(deps.clock.now().getTime() - BELL_DAYS * 86_400_000);
  return listBreachesFor(deps.db, ctx, ctx.user, since, BELL_LIMIT);
}

/** `GET /dashboard/sla`: targets met per queue, agent and day of the dashboard's range (admins). */
export async function readSlaReport(deps: Pick<SlaDeps, 'db' | 'clock'>, ctx: RequestContext, query: DashboardQuery): Promise<{ from: string; to: string; rows: SlaTallyRow[] }> {
  requireAdmin(ctx);
  const now = deps.clock.now();
  const timeZone = ctx.company.timezone;
  const range = resolveRange(timeZone, { days: query.days, from: query.date_from, to: query.date_to }, now);
  const rows = await slaTallies(
    deps.db,
    ctx,
    { from: startOfDayIn(range.from, timeZone), to: startOfDayIn(addToCalendarDate(range.to, { days: 1 }), timeZone), timeZone, queueIds: query.queueIds },
    now,
  );
  return { from: range.from, to: range.to, rows };
}
