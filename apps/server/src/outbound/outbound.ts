/**
 * The outbound engine's settle and the channel's acks (the engine itself:
 * outbound-engine.ts). A settle writes what a dispatch or a re-check learnt and runs
 * the sources' settle handlers in the same transaction; an ack or a failure the
 * channel reports later reaches the sources the same way.
 */
import type { Tx } from '../platform/db/client.js';
import type { Platform } from '../platform/platform.js';
import { ackSends, allItemsConfirmed, failSentSends, noteConfirmedItem, settleClaims, storedMessagesByKeys, type SendRef } from './outbound-claims.repo.js';
import { idempotencyKey, type OutboundEngine, type OutboundState, type Outcome, type SettledSend } from './outbound-engine.js';

/** What settling needs: the database and the engine (its clock, the sources' handlers). */
export type SettleDeps = Pick<Platform, 'db'> & { outbound: OutboundEngine };

/**
 * One statement settles a whole batch (state, ids, times) of rows still claimed,
 * and the sources' handlers run in the same transaction; `fromState` is the state
 * the rows must still be in.
 */
export async function settle(deps: SettleDeps, outcomes: Outcome[], fromState: OutboundState[] = ['sending']): Promise<SettledSend[]> {
  if (outcomes.length === 0) return [];
  const now = deps.outbound.runtime.now();
  const afterCommit: (() => void)[] = [];
  const settled = await deps.db.transaction(async (tx) => {
    const rows = (await settleClaims(tx, outcomes, fromState, now)).filter((row) => row.state !== 'queued');
    await runHandlers(deps.outbound, tx, rows, afterCommit);
    return rows;
  });
  for (const run of afterCommit) run();
  return settled;
}

async function runHandlers(engine: OutboundEngine, tx: Tx, rows: SettledSend[], afterCommit: (() => void)[]): Promise<void> {
  for (const [kind, list] of engine.handlers) {
    const ofKind = rows.filter((row) => row.kind === kind);
    if (ofKind.length === 0) continue;
    for (const handler of list) {
      const after = await handler(tx, ofKind);
      if (after) afterCommit.push(after);
    }
  }
}

/** A channel's ack for a message of an outbound send: ≥ 2 makes it delivered (acks only move forward). */
export async function applyOutboundAck(deps: SettleDeps, ref: SendRef, ack: number): Promise<void> {
  const now = deps.outbound.runtime.now();
  const afterCommit: (() => void)[] = [];
  await deps.db.transaction(async (tx) => {
    const rows = await ackSends(tx, ref, ack, now);
    if (ack >= 2) await runHandlers(deps.outbound, tx, rows, afterCommit);
  });
  for (const run of afterCommit) run();
}

/**
 * The channel reported that a send it had accepted failed (a Cloud API `failed`
 * status, a Baileys error ack): the record is failed with the reason, and its
 * source (schedule, campaign) learns it like any other failure. A delivered send
 * stays delivered.
 */
export async function applyOutboundFailure(deps: SettleDeps, ref: SendRef, reason: string): Promise<void> {
  const now = deps.outbound.runtime.now();
  const afterCommit: (() => void)[] = [];
  await deps.db.transaction(async (tx) => {
    await runHandlers(deps.outbound, tx, await failSentSends(tx, ref, reason, now), afterCommit);
  });
  for (const run of afterCommit) run();
}

/** `ob-<send id>-<item>` (outbound-engine.ts `idempotencyKey`), or null for another key. */
function parseSendKey(key: string): { sendId: number; item: number } | null {
  const match = /^ob-(\d{1,15})-(\d{1,4})$/.exec(key);
  return match ? { sendId: Number(match[1]), item: Number(match[2]) } : null;
}

/**
 * The channel took an item of a send (a status names it by our key) whose sender stopped, or
 * got no answer, before storing the channel's id. A send without a conversation notes the item;
 * a send in a conversation has its message updated by the caller. Either way a send the sweep
 * already failed (the outcome was unknown then) becomes sent once every item is confirmed, and
 * its source (the campaign's report, the schedule) learns it; one still claimed is left to the
 * sweep, which now finds it sent (outbound-sweep.ts).
 */
export async function confirmOutboundByKey(deps: SettleDeps, ref: SendRef, key: string): Promise<boolean> {
  const parsed = parseSendKey(key);
  if (!parsed) return false;
  const send = await noteConfirmedItem(deps.db, ref, parsed.sendId, parsed.item);
  if (!send) return false;
  if (send.state !== 'failed') return true;
  let outcome: Outcome | null = null;
  if (!send.conversation) {
    if (allItemsConfirmed(send)) outcome = { id: send.id, state: 'sent', reason: null, externalId: send.externalId, ack: send.ack, ticketId: null, messageId: null };
  } else if (send.contactId !== null) {
    const stored = await storedMessagesByKeys(deps.db, ref, send.contactId, send.items.map((_, index) => idempotencyKey(send.id, index)));
    stored.sort((a, b) => a.id - b.id);
    const [first] = stored;
    if (first && stored.length === send.items.length && stored.every((message) => message.sendStatus === 'sent')) {
      outcome = { id: send.id, state: first.ack >= 2 ? 'delivered' : 'sent', reason: null, externalId: first.externalId, ack: first.ack, ticketId: first.ticketId, messageId: first.id };
    }
  }
  if (outcome) await settle(deps, [outcome], ['failed']);
  return true;
}
