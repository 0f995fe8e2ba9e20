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
 * API for the modules that own the sources (schedules, campaigns):
 * - `queueSends(tx, scope, sends)`: inserts queued rows (ON CONFLICT DO NOTHING: a
 *   recipient already recorded for the source is not queued twice); returns the
 *   connection ids to wake. After the commit call `wakeOutbound(services, scope, ids)`
 *   (the sweep wakes them within OUTBOUND_SWEEP_SECONDS anyway).
 * - `cancelSends(tx, scope, kind, sourceId, reason?)`: queued rows → cancelled
 *   (rows already claimed finish; nothing queued is sent afterwards).
 * - `resumeSends(tx, scope, kind, sourceId)`: cancelled rows → queued again (a
 *   campaign restart sends only who was not sent to).
 * - `onSendSettled(services, kind, handler)`: the handler runs in the settle's
 *   transaction with every row of that kind that reached sent, delivered (also
 *   later, from an ack) or failed; it may return a function run after the commit
 *   (realtime events). Rows the source cancels itself (`cancelSends`) are not
 *   reported: the source knows.
 * - `idempotencyKey(sendId, item)`, `configureOutbound(services, {...})` (tests:
 *   clock, random source, waits), `dispatchConnection` and `sweepOutbound` (what
 *   the jobs run; tests call them directly).
 * - `onOutboundSweep(services, hook)`: runs on every sweep (a source queues what
 *   became due, e.g. schedules).
 * - `sendProgress(db, scope, kind, sourceIds)`: counts per state per source.
 * - `listSends(db, scope, kind, sourceId, { states?, limit?, offset? })`: a source's
 *   rows (a report's failures with their reasons), oldest first.
 */
import { and, asc, eq, inArray, sql } from 'drizzle-orm';
import pino, { type Logger } from 'pino';
import type { AppServices } from '../app.js';
import { providerKindOf, type ChannelProvider } from '../modules/connections/channel-provider.js';
import { deliverPendingMessage, sendThrough, storePendingMessages } from '../modules/messages/outgoing-messages.js';
import { findOrCreateTicket } from '../modules/external-api/external-api.service.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import type { Db, DbOrTx, Tx } from '../platform/db/client.js';
import {
  messages,
  OUTBOUND_STATES,
  outboundPacing,
  outboundSends,
  whatsapps,
  type OutboundItem,
  type OutboundSendRow,
  type WhatsappRow,
} from '../platform/db/schema.js';
import { AppError } from '../platform/http/app-error.js';
import type { TenantScope } from '../platform/http/context.js';
import { defineJob, registerRecurringJob, type JobDefinition } from '../platform/jobs/jobs.js';
import { loadCampaignSettings } from './campaign-settings/campaign-settings.repo.js';
import { isPaced, nextGate, type PacingGate, type PacingSettings } from './pacing.js';
import { inTenant } from '../platform/db/tenant.js';

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

export type SettleHandler = (tx: Tx, settled: SettledSend[]) => Promise<(() => void) | void>;
export type SweepHook = (now: Date) => Promise<void>;

/** Process-level knobs; tests replace the clock, the random source and the waits. */
export interface OutboundRuntime {
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

interface EngineState {
  runtime: OutboundRuntime;
  handlers: Map<OutboundKind, SettleHandler[]>;
  sweepHooks: SweepHook[];
  jobs: { dispatch: JobDefinition<DispatchData> } | null;
}

interface DispatchData {
  companyId: number;
  whatsappId: number;
}

const engines = new WeakMap<AppServices, EngineState>();

function engine(services: AppServices): EngineState {
  let state = engines.get(services);
  if (!state) {
    state = {
      runtime: {
        now: () => new Date(),
        sleep: (ms) => new Promise((resolve) => setTimeout(resolve, ms)),
        random: Math.random,
        batchSize: 50,
        concurrency: 8,
        runBudgetMs: 20_000,
        claimLeaseMs: services.config.OUTBOUND_CLAIM_LEASE_SECONDS * 1000,
        sweepSeconds: services.config.OUTBOUND_SWEEP_SECONDS,
        overdueLimitMs: services.config.SCHEDULE_OVERDUE_LIMIT_HOURS * 3_600_000,
        logger: pino({ level: services.config.LOG_LEVEL, base: { module: 'outbound' } }),
      },
      handlers: new Map(),
      sweepHooks: [],
      jobs: null,
    };
    engines.set(services, state);
  }
  return state;
}

export function outboundRuntime(services: AppServices): OutboundRuntime {
  return engine(services).runtime;
}

/** Replaces some knobs (tests: a controllable clock, no waits). */
export function configureOutbound(services: AppServices, overrides: Partial<OutboundRuntime>): OutboundRuntime {
  return Object.assign(engine(services).runtime, overrides);
}

export function onSendSettled(services: AppServices, kind: OutboundKind, handler: SettleHandler): void {
  const { handlers } = engine(services);
  handlers.set(kind, [...(handlers.get(kind) ?? []), handler]);
}

export function onOutboundSweep(services: AppServices, hook: SweepHook): void {
  engine(services).sweepHooks.push(hook);
}

/** The idempotency key of one message of a send: the same on every attempt. */
export function idempotencyKey(sendId: number, item: number): string {
  return `ob-${sendId}-${item}`;
}

// ---- API: queue, cancel, resume, progress ----

export async function queueSends(tx: DbOrTx, scope: TenantScope, sends: QueuedSend[]): Promise<{ queued: number; whatsappIds: number[] }> {
  if (sends.length === 0) return { queued: 0, whatsappIds: [] };
  let queued = 0;
  // Chunks keep each statement's parameters well under PostgreSQL's limit.
  for (let start = 0; start < sends.length; start += 1000) {
    const rows = await tx
      .insert(outboundSends)
      .values(
        sends.slice(start, start + 1000).map((send) => ({
          companyId: scope.companyId,
          kind: send.kind,
          sourceId: send.sourceId,
          recipient: send.recipient,
          whatsappId: send.whatsappId,
          contactId: send.contactId ?? null,
          number: send.number.replace(/\D/g, ''),
          conversation: send.conversation ?? false,
          items: send.items,
          details: send.details ?? {},
          ...(send.notBefore ? { notBefore: send.notBefore } : {}),
        })),
      )
      .onConflictDoNothing()
      .returning({ id: outboundSends.id });
    queued += rows.length;
  }
  return { queued, whatsappIds: [...new Set(sends.map((send) => send.whatsappId))] };
}

/** Queued sends of a source become cancelled; returns how many. Claimed ones (in flight) settle as usual. */
export async function cancelSends(tx: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceId: number, reason = 'ERR_CANCELLED'): Promise<number> {
  const rows = await tx
    .update(outboundSends)
    .set({ state: 'cancelled', reason, updatedAt: new Date() })
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), eq(outboundSends.state, 'queued')),
    )
    .returning({ id: outboundSends.id });
  return rows.length;
}

/** Cancelled sends of a source are queued again (a restarted campaign); returns the connections to wake. */
export async function resumeSends(tx: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceId: number): Promise<{ queued: number; whatsappIds: number[] }> {
  const rows = await tx
    .update(outboundSends)
    .set({ state: 'queued', reason: null, notBefore: new Date(), updatedAt: new Date() })
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), eq(outboundSends.state, 'cancelled')),
    )
    .returning({ whatsappId: outboundSends.whatsappId });
  return { queued: rows.length, whatsappIds: [...new Set(rows.flatMap((row) => (row.whatsappId === null ? [] : [row.whatsappId])))] };
}

export type SendCounts = Record<OutboundState, number> & { total: number };

/** Counts per state of each source (sources without sends are absent). */
export async function sendProgress(db: DbOrTx, scope: TenantScope, kind: OutboundKind, sourceIds: number[]): Promise<Map<number, SendCounts>> {
  const result = new Map<number, SendCounts>();
  if (sourceIds.length === 0) return result;
  const rows = await db
    .select({ sourceId: outboundSends.sourceId, state: outboundSends.state, count: sql<number>`count(*)::int` })
    .from(outboundSends)
    .where(inTenant(outboundSends, scope, eq(outboundSends.kind, kind), inArray(outboundSends.sourceId, sourceIds)))
    .groupBy(outboundSends.sourceId, outboundSends.state);
  for (const row of rows) {
    let counts = result.get(row.sourceId);
    if (!counts) {
      counts = { total: 0, ...(Object.fromEntries(OUTBOUND_STATES.map((state) => [state, 0])) as Record<OutboundState, number>) };
      result.set(row.sourceId, counts);
    }
    counts[row.state] += Number(row.count);
    counts.total += Number(row.count);
  }
  return result;
}

/** A page of a source's sends, oldest first, optionally only some states (a report's failures). */
export async function listSends(
  db: DbOrTx,
  scope: TenantScope,
  kind: OutboundKind,
  sourceId: number,
  options: { states?: OutboundState[]; limit?: number; offset?: number } = {},
): Promise<OutboundSendRow[]> {
  return db
    .select()
    .from(outboundSends)
    .where(
      inTenant(outboundSends, scope, eq(outboundSends.kind, kind), eq(outboundSends.sourceId, sourceId), options.states && options.states.length > 0 ? inArray(outboundSends.state, options.states) : undefined),
    )
    .orderBy(asc(outboundSends.id))
    .limit(Math.min(options.limit ?? 100, 1000))
    .offset(options.offset ?? 0);
}

/** Asks the dispatcher to look at these connections now (after the queueing transaction committed). */
export async function wakeOutbound(services: AppServices, scope: TenantScope, whatsappIds: number[], at?: Date): Promise<void> {
  const defs = engine(services).jobs;
  if (!defs) return;
  for (const whatsappId of whatsappIds) {
    await services.jobs.send(defs.dispatch, { companyId: scope.companyId, whatsappId }, { singletonKey: String(whatsappId), ...(at ? { startAfter: at } : {}) });
  }
}

// ---- Dispatch ----

interface Outcome {
  id: number;
  state: 'sent' | 'delivered' | 'failed' | 'queued';
  reason: string | null;
  externalId: string | null;
  ack: number;
  ticketId: number | null;
  messageId: number | null;
}

function failure(error: unknown): string {
  return error instanceof AppError ? error.code : 'ERR_SENDING_WAPP_MSG';
}

/** Why a send the channel refused failed: a number that is not on WhatsApp says so (ERR_WAPP_INVALID_CONTACT). */
async function refusalReason(provider: ChannelProvider, connection: WhatsappRow, number: string, error: unknown): Promise<string> {
  const code = failure(error);
  if (code !== 'ERR_SENDING_WAPP_MSG') return code;
  const checked = await provider.checkNumber(connection, number).catch(() => null);
  return checked && !checked.exists ? 'ERR_WAPP_INVALID_CONTACT' : code;
}

/** A send without a ticket: each item straight to the channel. */
async function sendDirect(provider: ChannelProvider, connection: WhatsappRow, send: OutboundSendRow): Promise<Outcome> {
  let first: { externalId: string; ack: number } | null = null;
  try {
    for (const [index, item] of send.items.entries()) {
      const sent = await sendThrough(provider, connection, {
        to: send.number,
        body: item.body,
        ...(item.media ? { media: item.media } : {}),
        idempotencyKey: idempotencyKey(send.id, index),
      });
      first ??= sent;
    }
  } catch (error) {
    const reason = await refusalReason(provider, connection, send.number, error);
    return { id: send.id, state: 'failed', reason, externalId: first?.externalId ?? null, ack: first?.ack ?? 0, ticketId: null, messageId: null };
  }
  const ack = first?.ack ?? 0;
  return { id: send.id, state: ack >= 2 ? 'delivered' : 'sent', reason: null, externalId: first?.externalId ?? null, ack, ticketId: null, messageId: null };
}

/**
 * A send stored in the contact's ticket on the connection (found or created):
 * the messages are pending rows first (store-before-send, outgoing-messages.ts),
 * linked to the send, then delivered.
 */
async function sendInConversation(services: AppServices, scope: TenantScope, provider: ChannelProvider, connection: WhatsappRow, send: OutboundSendRow): Promise<Outcome> {
  if (send.contactId === null) return { id: send.id, state: 'failed', reason: 'ERR_NO_CONTACT_FOUND', externalId: null, ack: 0, ticketId: null, messageId: null };
  const ticket = await findOrCreateTicket(services, scope, send.contactId, connection.id);
  const userId = typeof send.details.userId === 'number' ? send.details.userId : null;
  const stored = await storePendingMessages(services, scope, {
    ticketId: ticket.id,
    contactId: send.contactId,
    whatsappId: connection.id,
    userId,
    source: 'system',
    items: send.items.map((item, index) => ({
      message: { to: send.number, body: item.body, ...(item.media ? { media: item.media } : {}), idempotencyKey: idempotencyKey(send.id, index) },
      ...(item.media ? { media: item.media } : {}),
    })),
  });
  const messageId = stored[0]?.id ?? null;
  await services.db
    .update(outboundSends)
    .set({ ticketId: ticket.id, messageId })
    .where(inTenant(outboundSends, scope, eq(outboundSends.id, send.id)));
  if (ticket.created) {
    const detail = await findTicketDetail(services.db, scope, ticket.id);
    if (detail) services.events.emit('ticket.updated', { companyId: scope.companyId, ticket: detail });
  }
  return deliverStored(services, scope, provider, connection, send, ticket.id, stored.map((message) => message.id));
}

async function deliverStored(
  services: AppServices,
  scope: TenantScope,
  provider: ChannelProvider,
  connection: WhatsappRow,
  send: OutboundSendRow,
  ticketId: number,
  messageIds: number[],
): Promise<Outcome> {
  let first: { externalId: string | null; ack: number } | null = null;
  for (const id of messageIds) {
    const delivery = await deliverPendingMessage(services, scope, id);
    first ??= { externalId: delivery.message.externalId, ack: delivery.message.ack };
    if (delivery.error) {
      const reason = await refusalReason(provider, connection, send.number, delivery.error);
      return { id: send.id, state: 'failed', reason, externalId: first.externalId, ack: first.ack, ticketId, messageId: messageIds[0] ?? null };
    }
  }
  const ack = first?.ack ?? 0;
  return { id: send.id, state: ack >= 2 ? 'delivered' : 'sent', reason: null, externalId: first?.externalId ?? null, ack, ticketId, messageId: messageIds[0] ?? null };
}

/**
 * Claims up to `limit` due sends of a connection (queued → sending); rows other
 * nodes hold are skipped. `= any(array(...))` evaluates the locking sub-select
 * once (an `in (...)` may be re-run by the plan and claim more than the limit).
 */
async function claim(db: Db, scope: TenantScope, whatsappId: number, limit: number, now: Date): Promise<OutboundSendRow[]> {
  const due = sql`select ${outboundSends.id} from ${outboundSends}
    where ${outboundSends.companyId} = ${scope.companyId} and ${outboundSends.whatsappId} = ${whatsappId}
      and ${outboundSends.state} = 'queued' and ${outboundSends.notBefore} <= ${now.toISOString()}
    order by ${outboundSends.notBefore}, ${outboundSends.id}
    limit ${limit} for update skip locked`;
  const rows = await db
    .update(outboundSends)
    .set({ state: 'sending', attempts: sql`${outboundSends.attempts} + 1`, claimedAt: now, updatedAt: now })
    .where(inTenant(outboundSends, scope, sql`${outboundSends.id} = any(array(${due}))`))
    .returning();
  return rows.sort((a, b) => a.notBefore.getTime() - b.notBefore.getTime() || a.id - b.id);
}

interface RawSettled {
  id: string | number;
  company_id: number;
  kind: OutboundKind;
  source_id: number;
  recipient: string;
  state: OutboundState;
  reason: string | null;
  external_id: string | null;
  ticket_id: number | null;
  message_id: string | number | null;
  contact_id: number | null;
  whatsapp_id: number | null;
  details: Record<string, unknown> | string;
}

function toSettled(row: RawSettled): SettledSend {
  return {
    id: Number(row.id),
    companyId: Number(row.company_id),
    kind: row.kind,
    sourceId: Number(row.source_id),
    recipient: row.recipient,
    state: row.state,
    reason: row.reason,
    externalId: row.external_id,
    ticketId: row.ticket_id === null ? null : Number(row.ticket_id),
    messageId: row.message_id === null ? null : Number(row.message_id),
    contactId: row.contact_id === null ? null : Number(row.contact_id),
    whatsappId: row.whatsapp_id === null ? null : Number(row.whatsapp_id),
    details: typeof row.details === 'string' ? (JSON.parse(row.details) as Record<string, unknown>) : row.details,
  };
}

/**
 * One statement settles a whole batch (state, ids, times) of rows still claimed,
 * and the sources' handlers run in the same transaction; `fromState` is the state
 * the rows must still be in.
 */
async function settle(services: AppServices, outcomes: Outcome[], fromState: OutboundState[] = ['sending']): Promise<SettledSend[]> {
  if (outcomes.length === 0) return [];
  const now = engine(services).runtime.now();
  const payload = JSON.stringify(
    outcomes.map((o) => ({ id: o.id, state: o.state, reason: o.reason, external_id: o.externalId, ack: o.ack, ticket_id: o.ticketId, message_id: o.messageId })),
  );
  const afterCommit: (() => void)[] = [];
  const settled = await services.db.transaction(async (tx) => {
    const result = (await tx.execute(sql`
      update ${outboundSends} o set
        state = v.state,
        reason = v.reason,
        external_id = coalesce(v.external_id, o.external_id),
        ack = greatest(o.ack, coalesce(v.ack, 0)),
        ticket_id = coalesce(v.ticket_id, o.ticket_id),
        message_id = coalesce(v.message_id, o.message_id),
        claimed_at = case when v.state = 'queued' then null else o.claimed_at end,
        sent_at = case when v.state in ('sent', 'delivered') then coalesce(o.sent_at, ${now.toISOString()}::timestamptz) else o.sent_at end,
        delivered_at = case when v.state = 'delivered' then coalesce(o.delivered_at, ${now.toISOString()}::timestamptz) else o.delivered_at end,
        updated_at = ${now.toISOString()}::timestamptz
      from jsonb_to_recordset(${payload}::jsonb) as v(id bigint, state text, reason text, external_id text, ack int, ticket_id int, message_id bigint)
      where o.id = v.id and o.state = any(${`{${fromState.join(',')}}`}::text[])
      returning o.id, o.company_id, o.kind, o.source_id, o.recipient, o.state, o.reason, o.external_id, o.ticket_id, o.message_id, o.contact_id, o.whatsapp_id, o.details`)) as unknown as {
      rows: RawSettled[];
    };
    const rows = result.rows.map(toSettled).filter((row) => row.state !== 'queued');
    await runHandlers(services, tx, rows, afterCommit);
    return rows;
  });
  for (const run of afterCommit) run();
  return settled;
}

async function runHandlers(services: AppServices, tx: Tx, rows: SettledSend[], afterCommit: (() => void)[]): Promise<void> {
  const { handlers } = engine(services);
  for (const [kind, list] of handlers) {
    const ofKind = rows.filter((row) => row.kind === kind);
    if (ofKind.length === 0) continue;
    for (const handler of list) {
      const after = await handler(tx, ofKind);
      if (after) afterCommit.push(after);
    }
  }
}

async function loadGate(db: Db, scope: TenantScope, whatsappId: number, now: Date): Promise<PacingGate> {
  const [row] = await db
    .select({ nextAt: outboundPacing.nextAt, sentCount: outboundPacing.sentCount })
    .from(outboundPacing)
    .where(inTenant(outboundPacing, scope, eq(outboundPacing.whatsappId, whatsappId)))
    .limit(1);
  return row ?? { nextAt: now, sentCount: 0 };
}

async function saveGate(db: Db, scope: TenantScope, whatsappId: number, gate: PacingGate): Promise<void> {
  await db
    .insert(outboundPacing)
    .values({ whatsappId, companyId: scope.companyId, nextAt: gate.nextAt, sentCount: gate.sentCount })
    .onConflictDoUpdate({ target: outboundPacing.whatsappId, set: { nextAt: gate.nextAt, sentCount: gate.sentCount, updatedAt: new Date() } });
}

async function inPool<T, R>(items: T[], size: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(size, items.length) }, async () => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index] as T);
    }
  });
  await Promise.all(lanes);
  return results;
}

/**
 * One dispatch run for a connection: while due sends remain and the run's budget
 * lasts, it waits for the pacing gate (stored, so a restart keeps the spacing),
 * claims, sends and settles. A stopped connection leaves its sends queued.
 */
export async function dispatchConnection(services: AppServices, data: DispatchData): Promise<void> {
  const { runtime } = engine(services);
  const scope: TenantScope = { companyId: data.companyId };
  const startedAt = runtime.now().getTime();
  const [connection] = await services.db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, data, eq(whatsapps.id, data.whatsappId)))
    .limit(1);
  if (!connection || connection.status !== 'CONNECTED') return;
  const provider = services.channels.providerFor(connection);
  const settings = await loadCampaignSettings(services.db, scope);
  const pacing: PacingSettings = {
    messageInterval: settings.messageInterval,
    longerIntervalAfter: settings.longerIntervalAfter,
    greaterInterval: settings.greaterInterval,
    maxPerSecond: settings.sendCaps[providerKindOf(connection.provider)],
  };
  const paced = isPaced(pacing);
  for (;;) {
    const now = runtime.now();
    const gate = paced ? await loadGate(services.db, scope, connection.id, now) : null;
    if (gate && gate.nextAt > now) {
      const wait = gate.nextAt.getTime() - now.getTime();
      if (now.getTime() + wait - startedAt <= runtime.runBudgetMs) {
        await runtime.sleep(wait);
        continue;
      }
      await wakeOutbound(services, scope, [connection.id], gate.nextAt);
      return;
    }
    const batch = await claim(services.db, scope, connection.id, paced ? 1 : runtime.batchSize, now);
    if (batch.length === 0) return;
    const dispatchOne = (send: OutboundSendRow) =>
      send.conversation ? sendInConversation(services, scope, provider, connection, send) : sendDirect(provider, connection, send);
    const outcomes = await inPool(batch, paced ? 1 : runtime.concurrency, async (send) => {
      try {
        return await dispatchOne(send);
      } catch (error) {
        // Our own failure (the database) around the channel's answer: the claim stays and the sweep re-checks it.
        runtime.logger.error({ err: error, sendId: send.id }, 'outbound send not settled');
        return null;
      }
    });
    await settle(services, outcomes.filter((outcome): outcome is Outcome => outcome !== null));
    if (gate) {
      const [sent] = batch;
      if (sent) await saveGate(services.db, scope, connection.id, nextGate(pacing, gate, runtime.now(), sent.kind === 'campaign', runtime.random));
    }
    if (runtime.now().getTime() - startedAt > runtime.runBudgetMs) {
      await wakeOutbound(services, scope, [connection.id]);
      return;
    }
  }
}

// ---- Acks ----

/** A channel's ack for a message of an outbound send: ≥ 2 makes it delivered (acks only move forward). */
export async function applyOutboundAck(services: AppServices, ref: { companyId: number; whatsappId: number; externalId: string }, ack: number): Promise<void> {
  const now = engine(services).runtime.now();
  const afterCommit: (() => void)[] = [];
  await services.db.transaction(async (tx) => {
    const rows = await tx
      .update(outboundSends)
      .set({
        ack: sql`greatest(${outboundSends.ack}, ${ack})`,
        ...(ack >= 2 ? { state: 'delivered' as const, deliveredAt: sql`coalesce(${outboundSends.deliveredAt}, ${now.toISOString()}::timestamptz)` } : {}),
        updatedAt: now,
      })
      .where(
        inTenant(outboundSends, ref, eq(outboundSends.whatsappId, ref.whatsappId), eq(outboundSends.externalId, ref.externalId), ack >= 2 ? eq(outboundSends.state, 'sent') : sql`${outboundSends.ack} < ${ack}`),
      )
      .returning();
    if (ack >= 2) await runHandlers(services, tx, rows.map(rowToSettled), afterCommit);
  });
  for (const run of afterCommit) run();
}

/**
 * The channel reported that a send it had accepted failed (a Cloud API `failed`
 * status, a Baileys error ack): the record is failed with the reason, and its
 * source (schedule, campaign) learns it like any other failure. A delivered send
 * stays delivered.
 */
export async function applyOutboundFailure(services: AppServices, ref: { companyId: number; whatsappId: number; externalId: string }, reason: string): Promise<void> {
  const now = engine(services).runtime.now();
  const afterCommit: (() => void)[] = [];
  await services.db.transaction(async (tx) => {
    const rows = await tx
      .update(outboundSends)
      .set({ state: 'failed', reason, updatedAt: now })
      .where(
        inTenant(outboundSends, ref, eq(outboundSends.whatsappId, ref.whatsappId), eq(outboundSends.externalId, ref.externalId), eq(outboundSends.state, 'sent')),
      )
      .returning();
    await runHandlers(services, tx, rows.map(rowToSettled), afterCommit);
  });
  for (const run of afterCommit) run();
}

function rowToSettled(row: OutboundSendRow): SettledSend {
  return {
    id: row.id,
    companyId: row.companyId,
    kind: row.kind,
    sourceId: row.sourceId,
    recipient: row.recipient,
    state: row.state,
    reason: row.reason,
    externalId: row.externalId,
    ticketId: row.ticketId,
    messageId: row.messageId,
    contactId: row.contactId,
    whatsappId: row.whatsappId,
    details: row.details,
  };
}

// ---- Recovery of claims a stopped node left ----

/**
 * A send claimed longer than the lease ago and never settled: its node stopped
 * somewhere between the claim and the settle. It is re-checked, not re-sent blindly:
 * - stored in a conversation: its message rows tell (all sent → sent; one failed →
 *   failed; none stored → nothing went out, queued again; still pending → delivered
 *   again with the same idempotency keys if the provider honours them, else failed
 *   ERR_SEND_INTERRUPTED);
 * - without a conversation: queued again when the provider honours idempotency keys
 *   (the repeat is a no-op at the channel), else failed ERR_SEND_INTERRUPTED (the
 *   outcome is unknown; a person decides to send again).
 */
export async function recoverStaleClaims(services: AppServices): Promise<number> {
  const { runtime } = engine(services);
  const staleBefore = new Date(runtime.now().getTime() - runtime.claimLeaseMs);
  const stale = await services.db
    .select()
    .from(outboundSends)
    .where(and(eq(outboundSends.state, 'sending'), sql`${outboundSends.claimedAt} <= ${staleBefore.toISOString()}::timestamptz`))
    .limit(500);
  const outcomes: Outcome[] = [];
  for (const send of stale) {
    const scope: TenantScope = { companyId: send.companyId };
    const [connection] = send.whatsappId
      ? await services.db
          .select()
          .from(whatsapps)
          .where(inTenant(whatsapps, send, eq(whatsapps.id, send.whatsappId)))
          .limit(1)
      : [];
    const idempotent = connection ? services.channels.providerFor(connection).idempotentSends === true : false;
    const base = { id: send.id, externalId: send.externalId, ack: send.ack, ticketId: send.ticketId, messageId: send.messageId };
    if (!send.conversation) {
      outcomes.push(idempotent ? { ...base, state: 'queued', reason: null } : { ...base, state: 'failed', reason: 'ERR_SEND_INTERRUPTED' });
      continue;
    }
    const keys = send.items.map((_, index) => idempotencyKey(send.id, index));
    const stored = send.contactId
      ? await services.db
          .select({ id: messages.id, sendStatus: messages.sendStatus, sendError: messages.sendError, externalId: messages.externalId, ack: messages.ack, ticketId: messages.ticketId })
          .from(messages)
          .where(
            inTenant(messages, send, eq(messages.contactId, send.contactId), inArray(sql<string>`${messages.sendPayload} ->> 'idempotencyKey'`, keys)),
          )
      : [];
    stored.sort((a, b) => a.id - b.id);
    const [first] = stored;
    if (!first) {
      outcomes.push({ ...base, state: 'queued', reason: null });
      continue;
    }
    const linked = { ...base, ticketId: first.ticketId, messageId: first.id, externalId: first.externalId, ack: first.ack };
    const failed = stored.find((m) => m.sendStatus === 'failed');
    if (failed) {
      outcomes.push({ ...linked, state: 'failed', reason: failed.sendError ?? 'ERR_SENDING_WAPP_MSG' });
    } else if (stored.every((m) => m.sendStatus === 'sent')) {
      outcomes.push({ ...linked, state: first.ack >= 2 ? 'delivered' : 'sent', reason: null });
    } else if (idempotent && connection && connection.status === 'CONNECTED') {
      const pending = stored.filter((m) => m.sendStatus === 'pending').map((m) => m.id);
      outcomes.push(await deliverStored(services, scope, services.channels.providerFor(connection), connection, send, first.ticketId, pending));
      const [again] = await services.db.select({ externalId: messages.externalId, ack: messages.ack }).from(messages).where(eq(messages.id, first.id));
      const last = outcomes.at(-1);
      if (last && again) Object.assign(last, { externalId: again.externalId, ack: Math.max(last.ack, again.ack), messageId: first.id });
    } else if (idempotent) {
      // The connection is down: the pending messages wait; the send is re-checked on a later sweep.
      await services.db.update(outboundSends).set({ claimedAt: runtime.now() }).where(eq(outboundSends.id, send.id));
    } else {
      await services.db
        .update(messages)
        .set({ sendStatus: 'failed', sendError: 'ERR_SEND_INTERRUPTED', updatedAt: new Date() })
        .where(inTenant(messages, send, inArray(messages.id, stored.map((m) => m.id)), eq(messages.sendStatus, 'pending')));
      outcomes.push({ ...linked, state: 'failed', reason: 'ERR_SEND_INTERRUPTED' });
    }
  }
  await settle(services, outcomes);
  return outcomes.length;
}

/** Sends of a deleted connection (its id set to null) can never go: failed with ERR_NO_WAPP_FOUND. */
async function failOrphans(services: AppServices): Promise<void> {
  const rows = await services.db
    .select({ id: outboundSends.id })
    .from(outboundSends)
    .where(and(eq(outboundSends.state, 'queued'), sql`${outboundSends.whatsappId} is null`))
    .limit(500);
  if (rows.length === 0) return;
  await settle(
    services,
    rows.map((row) => ({ id: row.id, state: 'failed', reason: 'ERR_NO_WAPP_FOUND', externalId: null, ack: 0, ticketId: null, messageId: null })),
    ['queued'],
  );
}

/** One sweep: the sources queue what became due, stale claims are re-checked, connections with due sends are woken. */
export async function sweepOutbound(services: AppServices): Promise<void> {
  const state = engine(services);
  const now = state.runtime.now();
  // A failing source (schedules, campaigns) is logged and the rest of the sweep still runs.
  for (const hook of state.sweepHooks) {
    await hook(now).catch((error: unknown) => state.runtime.logger.error({ err: error }, 'outbound sweep hook failed'));
  }
  await recoverStaleClaims(services);
  await failOrphans(services);
  const due = await services.db
    .select({ companyId: outboundSends.companyId, whatsappId: outboundSends.whatsappId })
    .from(outboundSends)
    .leftJoin(outboundPacing, eq(outboundPacing.whatsappId, outboundSends.whatsappId))
    .where(
      and(
        eq(outboundSends.state, 'queued'),
        sql`${outboundSends.notBefore} <= ${now.toISOString()}::timestamptz`,
        sql`${outboundSends.whatsappId} is not null`,
        sql`(${outboundPacing.nextAt} is null or ${outboundPacing.nextAt} <= ${now.toISOString()}::timestamptz)`,
      ),
    )
    .groupBy(outboundSends.companyId, outboundSends.whatsappId)
    .limit(1000);
  for (const row of due) if (row.whatsappId !== null) await wakeOutbound(services, { companyId: row.companyId }, [row.whatsappId]);
}

/** Registers the engine's jobs with the app's runner and starts the sweep chain. */
export function registerOutboundJobs(services: AppServices): void {
  const state = engine(services);
  state.jobs = {
    dispatch: defineJob<DispatchData>({
      name: 'outbound.dispatch',
      // One run at a time per connection (singletonKey = connection id), one more queued. A run
      // lasts at most runBudgetMs (20 s) plus one batch; the lease is short because a run a killed
      // node held blocks its connection until the lease ends and maintenance hands it back.
      options: { policy: 'stately', retryLimit: 5, retryDelay: 5, expireInSeconds: 40 },
      handler: (data) => dispatchConnection(services, data),
    }),
  };
  services.jobs.register(state.jobs.dispatch);
  registerRecurringJob(services.jobs, {
    name: 'outbound.sweep',
    everySeconds: () => state.runtime.sweepSeconds,
    options: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 },
    run: () => sweepOutbound(services),
    logger: state.runtime.logger,
  });
}
