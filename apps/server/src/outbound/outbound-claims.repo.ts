import { and, eq, inArray, sql } from 'drizzle-orm';
import type { Db, DbOrTx } from '../platform/db/client.js';
import { companies, contacts, messages, outboundPacing, outboundSends, whatsapps, type OutboundSendRow, type WhatsappRow } from '../platform/db/schema.js';
import { inTenant } from '../platform/db/tenant.js';
import type { TenantScope } from '../platform/http/context.js';
import type { OutboundKind, OutboundState, Outcome, SettledSend } from './outbound-engine.js';
import type { PacingGate } from './pacing.js';

/*
 * The engine's own statements: claims, the settle, the channel's acks, the pacing
 * gate, and what the sweep reads (stale claims, orphans, due connections).
 */

/** The company's time zone, whose clock the message variables read (`{{hora}}`, `{{ms}}`, `{{data}}`). */
export async function companyTimeZone(db: DbOrTx, scope: TenantScope): Promise<string> {
  const [row] = await db.select({ timezone: companies.timezone }).from(companies).where(eq(companies.id, scope.companyId)).limit(1);
  return row?.timezone ?? 'America/Sao_Paulo';
}

/** Who a conversation send's variables are filled for: its contact as it is when the send goes out. */
export async function findRecipientContact(db: DbOrTx, scope: TenantScope, contactId: number): Promise<{ name: string; number: string; email: string } | null> {
  const [row] = await db
    .select({ name: contacts.name, number: contacts.number, email: contacts.email })
    .from(contacts)
    .where(inTenant(contacts, scope, eq(contacts.id, contactId)))
    .limit(1);
  return row ?? null;
}

export async function findConnection(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<WhatsappRow | null> {
  const [connection] = await db
    .select()
    .from(whatsapps)
    .where(inTenant(whatsapps, scope, eq(whatsapps.id, whatsappId)))
    .limit(1);
  return connection ?? null;
}

/**
 * Claims up to `limit` due sends of a connection (queued → sending); rows other
 * nodes hold are skipped. `= any(array(...))` evaluates the locking sub-select
 * once (an `in (...)` may be re-run by the plan and claim more than the limit).
 */
export async function claim(db: Db, scope: TenantScope, whatsappId: number, limit: number, now: Date): Promise<OutboundSendRow[]> {
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

/** A conversation send is linked to its ticket and first message as soon as they are stored. */
export async function linkSendToTicket(db: DbOrTx, scope: TenantScope, sendId: number, ticketId: number, messageId: number | null): Promise<void> {
  await db
    .update(outboundSends)
    .set({ ticketId, messageId })
    .where(inTenant(outboundSends, scope, eq(outboundSends.id, sendId)));
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

/**
 * One statement settles a whole batch (state, ids, times) of rows still in one of
 * `fromState`; answers the rows it changed.
 */
export async function settleClaims(tx: DbOrTx, outcomes: Outcome[], fromState: OutboundState[], now: Date): Promise<SettledSend[]> {
  const payload = JSON.stringify(
    outcomes.map((o) => ({ id: o.id, state: o.state, reason: o.reason, external_id: o.externalId, ack: o.ack, ticket_id: o.ticketId, message_id: o.messageId })),
  );
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
  return result.rows.map(toSettled);
}

export interface SendRef {
  companyId: number;
  whatsappId: number;
  externalId: string;
}

/**
 * An item of a send the channel confirmed by our key: noted in `details.confirmedItems` (the
 * first item's id kept for its acks) while the send is still claimed, or failed without the
 * channel's id. Answers the send as it is now, or null when this connection has no such send.
 */
export async function noteConfirmedItem(db: DbOrTx, ref: SendRef, sendId: number, item: number): Promise<OutboundSendRow | null> {
  const confirmed = sql`coalesce(${outboundSends.details} -> 'confirmedItems', '[]'::jsonb)`;
  const [row] = await db
    .update(outboundSends)
    .set({
      details: sql`jsonb_set(${outboundSends.details}, '{confirmedItems}', case when ${confirmed} @> ${JSON.stringify([item])}::jsonb then ${confirmed} else ${confirmed} || ${JSON.stringify([item])}::jsonb end)`,
      ...(item === 0 ? { externalId: sql`coalesce(${outboundSends.externalId}, ${ref.externalId})` } : {}),
      updatedAt: new Date(),
    })
    .where(
      inTenant(
        outboundSends,
        ref,
        eq(outboundSends.id, sendId),
        eq(outboundSends.whatsappId, ref.whatsappId),
        sql`(${outboundSends.state} = 'sending' or (${outboundSends.state} = 'failed' and ${outboundSends.externalId} is null))`,
      ),
    )
    .returning();
  return row ?? null;
}

/** Whether the channel confirmed every item of a send by its key (`noteConfirmedItem`). */
export function allItemsConfirmed(send: Pick<OutboundSendRow, 'details' | 'items'>): boolean {
  const confirmed = Array.isArray(send.details.confirmedItems) ? (send.details.confirmedItems as unknown[]) : [];
  return send.items.every((_, index) => confirmed.includes(index));
}

/** A channel's ack on the sends with that id: raised (never lowered); ≥ 2 makes a sent one delivered. Answers the rows changed. */
export async function ackSends(tx: DbOrTx, ref: SendRef, ack: number, now: Date): Promise<SettledSend[]> {
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
  return rows.map(rowToSettled);
}

/** The sent sends with that id become failed with the reason; answers them. */
export async function failSentSends(tx: DbOrTx, ref: SendRef, reason: string, now: Date): Promise<SettledSend[]> {
  const rows = await tx
    .update(outboundSends)
    .set({ state: 'failed', reason, updatedAt: now })
    .where(
      inTenant(outboundSends, ref, eq(outboundSends.whatsappId, ref.whatsappId), eq(outboundSends.externalId, ref.externalId), eq(outboundSends.state, 'sent')),
    )
    .returning();
  return rows.map(rowToSettled);
}

export async function loadGate(db: DbOrTx, scope: TenantScope, whatsappId: number, now: Date): Promise<PacingGate> {
  const [row] = await db
    .select({ nextAt: outboundPacing.nextAt, sentCount: outboundPacing.sentCount })
    .from(outboundPacing)
    .where(inTenant(outboundPacing, scope, eq(outboundPacing.whatsappId, whatsappId)))
    .limit(1);
  return row ?? { nextAt: now, sentCount: 0 };
}

export async function saveGate(db: DbOrTx, scope: TenantScope, whatsappId: number, gate: PacingGate): Promise<void> {
  await db
    .insert(outboundPacing)
    .values({ whatsappId, companyId: scope.companyId, nextAt: gate.nextAt, sentCount: gate.sentCount })
    .onConflictDoUpdate({ target: outboundPacing.whatsappId, set: { nextAt: gate.nextAt, sentCount: gate.sentCount, updatedAt: new Date() } });
}

// ---- What the sweep reads ----

/** Sends claimed at or before `staleBefore` and never settled (any company), at most 500. */
export async function staleClaims(db: DbOrTx, staleBefore: Date): Promise<OutboundSendRow[]> {
  return db
    .select()
    .from(outboundSends)
    .where(and(eq(outboundSends.state, 'sending'), sql`${outboundSends.claimedAt} <= ${staleBefore.toISOString()}::timestamptz`))
    .limit(500);
}

/** The messages a conversation send stored, found by their idempotency keys. */
export async function storedMessagesByKeys(db: DbOrTx, scope: TenantScope, contactId: number, keys: string[]) {
  return db
    .select({ id: messages.id, sendStatus: messages.sendStatus, sendError: messages.sendError, externalId: messages.externalId, ack: messages.ack, ticketId: messages.ticketId })
    .from(messages)
    .where(inTenant(messages, scope, eq(messages.contactId, contactId), inArray(sql<string>`${messages.sendPayload} ->> 'idempotencyKey'`, keys)));
}

/** A message's channel id and ack as stored now. */
export async function messageAck(db: DbOrTx, messageId: number): Promise<{ externalId: string | null; ack: number } | null> {
  const [row] = await db.select({ externalId: messages.externalId, ack: messages.ack }).from(messages).where(eq(messages.id, messageId));
  return row ?? null;
}

/** A claim left waiting for its connection: the lease starts again, so a later sweep re-checks it. */
export async function renewClaim(db: DbOrTx, sendId: number, now: Date): Promise<void> {
  await db.update(outboundSends).set({ claimedAt: now }).where(eq(outboundSends.id, sendId));
}

/** Pending messages among these fail with the reason. */
export async function failPendingMessages(db: DbOrTx, scope: TenantScope, messageIds: number[], reason: string): Promise<void> {
  await db
    .update(messages)
    .set({ sendStatus: 'failed', sendError: reason, updatedAt: new Date() })
    .where(inTenant(messages, scope, inArray(messages.id, messageIds), eq(messages.sendStatus, 'pending')));
}

/** Queued sends whose connection was deleted (its id set to null), at most 500. */
export async function orphanSendIds(db: DbOrTx): Promise<number[]> {
  const rows = await db
    .select({ id: outboundSends.id })
    .from(outboundSends)
    .where(and(eq(outboundSends.state, 'queued'), sql`${outboundSends.whatsappId} is null`))
    .limit(500);
  return rows.map((row) => row.id);
}

/** Connections (of any company) with due queued sends and an open pacing gate, at most 1000. */
export async function dueConnections(db: DbOrTx, now: Date): Promise<{ companyId: number; whatsappId: number | null }[]> {
  return db
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
}
