/**
 * The outbound engine (issue 20): the one durable way schedules and campaigns send.
 *
 * Every send is a row of `outbound_sends`, unique per (company, kind, source id,
 * recipient), written before anything reaches a channel. A pg-boss job per
 * connection (`outbound.dispatch`, one active at a time per connection) claims
 * due rows (queued → sending), hands them to the connection's ChannelProvider with
 * an idempotency key per message (`ob-{sendId}-{item}`), and settles them from the
 * answer (sent, delivered when the channel's ack is ≥ 2, failed with an error
 * code); later acks move sent → delivered. A sweep job (`outbound.sweep`) wakes
 * connections with due rows, runs the sources' due hooks (schedules) and re-checks
 * claims a stopped node left (see docs/architecture.md, "Outbound engine").
 *
 * Files: this one (the engine's per-app state, created by the composition root and
 * handed in as `deps.outbound`; its types; waking a connection), `outbound.repo.ts`
 * (the sources' queries), `outbound-claims.repo.ts` (the engine's own queries),
 * `outbound-dispatch.ts` (a dispatch run), `outbound.ts` (settle, the channel's acks),
 * `outbound-sweep.ts` (the sweep, the re-check of stale claims), `outbound.jobs.ts`
 * (the jobs), `pacing.ts` (the pacing rules).
 *
 * API for the sources (schedules, campaigns):
 * - `queueSends(tx, scope, sends)` (outbound.repo.ts): inserts queued rows (ON
 *   CONFLICT DO NOTHING: a recipient already recorded for the source is not queued
 *   twice); returns the connection ids to wake. After the commit call
 *   `wakeOutbound(deps, scope, ids)` (the sweep wakes them within
 *   OUTBOUND_SWEEP_SECONDS anyway).
 * - `cancelSends(tx, scope, kind, sourceId, reason?)`: queued rows → cancelled
 *   (rows already claimed finish; nothing queued is sent afterwards).
 * - `resumeSends(tx, scope, kind, sourceId)`: cancelled rows → queued again (a
 *   campaign restart sends only who was not sent to).
 * - `deps.outbound.onSendSettled(kind, handler)`: the handler runs in the settle's
 *   transaction with every row of that kind that reached sent, delivered (also
 *   later, from an ack) or failed; it may return a function run after the commit
 *   (realtime events). Rows the source cancels itself (`cancelSends`) are not
 *   reported: the source knows.
 * - `deps.outbound.onSweep(hook)`: runs on every sweep (a source queues what became
 *   due, e.g. schedules).
 * - `sendProgress(db, scope, kind, sourceIds)`: counts per state per source.
 * - `listSends(db, scope, kind, sourceId, { states?, limit?, offset? })`: a source's
 *   rows (a report's failures with their reasons), oldest first.
 * - `idempotencyKey(sendId, item)`, `deps.outbound.configure({...})` (tests: clock,
 *   random source, waits), `dispatchConnection` and `sweepOutbound` (what the jobs
 *   run; tests call them directly).
 */
import type { Config } from '../platform/config.js';
import type { Clock } from '../platform/clock.js';
import type { Tx } from '../platform/db/client.js';
import type { OUTBOUND_STATES, OutboundItem, OutboundSendRow } from '../platform/db/schema.js';
import type { TenantScope } from '../platform/http/context.js';
import type { JobDefinition } from '../platform/jobs/jobs.js';
import type { Logger } from '../platform/logger.js';
import type { Platform } from '../platform/platform.js';

export type OutboundKind = OutboundSendRow['kind'];
export type OutboundState = (typeof OUTBOUND_STATES)[number];

export interface QueuedSend {
  kind: OutboundKind;
  sourceId: number;
  /** Unique within the source: a contact id or a number, as text. */
  recipient: string;
  whatsappId: number;
  contactId?: number | null;
  /** Digits the channel sends to. */
  number: string;
  /** Store the messages in the contact's ticket on that connection (found or created at send time). */
  conversation?: boolean;
  /** Sent in order: the text first, then files. */
  items: OutboundItem[];
  /** Kept on the row for the source (a campaign's variant, the schedule's user: `userId`). */
  details?: Record<string, unknown>;
  /** Not sent before this time (default: now). */
  notBefore?: Date;
}

export interface SettledSend {
  id: number;
  companyId: number;
  kind: OutboundKind;
  sourceId: number;
  recipient: string;
  state: OutboundState;
  reason: string | null;
  externalId: string | null;
  ticketId: number | null;
  messageId: number | null;
  contactId: number | null;
  whatsappId: number | null;
  details: Record<string, unknown>;
}

/** What a dispatch (or the re-check of a stale claim) learnt of one send; the settle writes it. */
export interface Outcome {
  id: number;
  state: 'sent' | 'delivered' | 'failed' | 'queued';
  reason: string | null;
  externalId: string | null;
  ack: number;
  ticketId: number | null;
  messageId: number | null;
}

type SettleHandler = (tx: Tx, settled: SettledSend[]) => Promise<(() => void) | void>;
type SweepHook = (now: Date) => Promise<void>;

/** What one dispatch job names: a connection of a company. */
export interface DispatchData {
  companyId: number;
  whatsappId: number;
}

/** The engine's knobs; tests replace the clock, the random source and the waits. */
interface OutboundRuntime {
  now(): Date;
  sleep(ms: number): Promise<void>;
  random(): number;
  /** Sends claimed at once by an unpaced connection. */
  batchSize: number;
  /** Unpaced sends of one batch in flight at once. */
  concurrency: number;
  /** A dispatch run stops after this long and queues its continuation. */
  runBudgetMs: number;
  claimLeaseMs: number;
  sweepSeconds: number;
  overdueLimitMs: number;
  logger: Logger;
}

/**
 * The engine's per-app state: its knobs, the sources' settle handlers and sweep
 * hooks, and its dispatch job once registered (outbound.jobs.ts). Created by the
 * composition root (app.ts) and handed in as `deps.outbound`.
 */
export interface OutboundEngine {
  readonly runtime: OutboundRuntime;
  readonly handlers: ReadonlyMap<OutboundKind, readonly SettleHandler[]>;
  readonly sweepHooks: readonly SweepHook[];
  /** Set by `registerOutboundJobs`; until then nothing is woken (the sweep is not running either). */
  dispatchJob: JobDefinition<DispatchData> | null;
  /** Replaces some knobs (tests: a controllable clock, no waits). */
  configure(overrides: Partial<OutboundRuntime>): OutboundRuntime;
  onSendSettled(kind: OutboundKind, handler: SettleHandler): void;
  onSweep(hook: SweepHook): void;
}

export function createOutboundEngine(options: {
  config: Pick<Config, 'OUTBOUND_CLAIM_LEASE_SECONDS' | 'OUTBOUND_SWEEP_SECONDS' | 'SCHEDULE_OVERDUE_LIMIT_HOURS'>;
  clock: Clock;
  logger: Logger;
}): OutboundEngine {
  const { config, clock } = options;
  const runtime: OutboundRuntime = {
    now: () => clock.now(),
    sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
    random: Math.random,
    batchSize: 50,
    concurrency: 8,
    runBudgetMs: 20_000,
    claimLeaseMs: config.OUTBOUND_CLAIM_LEASE_SECONDS * 1000,
    sweepSeconds: config.OUTBOUND_SWEEP_SECONDS,
    overdueLimitMs: config.SCHEDULE_OVERDUE_LIMIT_HOURS * 3_600_000,
    logger: options.logger.child({ module: 'outbound' }),
  };
  const handlers = new Map<OutboundKind, SettleHandler[]>();
  const sweepHooks: SweepHook[] = [];
  return {
    runtime,
    handlers,
    sweepHooks,
    dispatchJob: null,
    configure: (overrides) => Object.assign(runtime, overrides),
    onSendSettled(kind, handler) {
      handlers.set(kind, [...(handlers.get(kind) ?? []), handler]);
    },
    onSweep(hook) {
      sweepHooks.push(hook);
    },
  };
}

/** The idempotency key of one message of a send: the same on every attempt. */
export function idempotencyKey(sendId: number, item: number): string {
  return `ob-${sendId}-${item}`;
}

export type WakeDeps = Pick<Platform, 'jobs'> & { outbound: OutboundEngine };

/** Asks the dispatcher to look at these connections now (after the queueing transaction committed). */
export async function wakeOutbound(deps: WakeDeps, scope: TenantScope, whatsappIds: number[], at?: Date): Promise<void> {
  const dispatch = deps.outbound.dispatchJob;
  if (!dispatch) return;
  for (const whatsappId of whatsappIds) {
    await deps.jobs.send(dispatch, { companyId: scope.companyId, whatsappId }, { singletonKey: String(whatsappId), ...(at ? { startAfter: at } : {}) });
  }
}
