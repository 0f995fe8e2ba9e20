/**
 * The outbound engine's sweep (outbound-engine.ts): the sources' due hooks, the
 * re-check of claims a stopped node left, orphans, and waking connections with due
 * sends.
 */
import type { TenantScope } from '../platform/http/context.js';
import {
  allItemsConfirmed,
  dueConnections,
  failPendingMessages,
  findConnection,
  messageAck,
  orphanSendIds,
  renewClaim,
  staleClaims,
  storedMessagesByKeys,
} from './outbound-claims.repo.js';
import { deliverStored, type OutboundDeps } from './outbound-dispatch.js';
import { idempotencyKey, wakeOutbound, type Outcome } from './outbound-engine.js';
import { settle } from './outbound.js';

/**
 * A send claimed longer than the lease ago and never settled: its node stopped
 * somewhere between the claim and the settle. It is re-checked, not re-sent blindly:
 * - stored in a conversation: its message rows tell (all sent → sent; one failed →
 *   failed; none stored → nothing went out, queued again; still pending → delivered
 *   again with the same idempotency keys if the provider honours them, else failed
 *   ERR_SEND_INTERRUPTED);
 * - without a conversation: sent when the channel confirmed every item by our key (a
 *   Cloud API status's `biz_opaque_callback_data`); else queued again when the provider
 *   honours idempotency keys (the repeat is a no-op at the channel), else failed
 *   ERR_SEND_INTERRUPTED (the outcome is unknown; a person decides to send again; a
 *   confirmation arriving later still settles it as sent).
 */
export async function recoverStaleClaims(deps: OutboundDeps): Promise<number> {
  const { runtime } = deps.outbound;
  const staleBefore = new Date(runtime.now().getTime() - runtime.claimLeaseMs);
  const stale = await staleClaims(deps.db, staleBefore);
  const outcomes: Outcome[] = [];
  for (const send of stale) {
    const scope: TenantScope = { companyId: send.companyId };
    const connection = send.whatsappId ? await findConnection(deps.db, scope, send.whatsappId) : null;
    const idempotent = connection ? deps.channels.providerFor(connection).idempotentSends === true : false;
    const base = { id: send.id, externalId: send.externalId, ack: send.ack, ticketId: send.ticketId, messageId: send.messageId };
    if (!send.conversation) {
      // The channel's statuses named every item by our key (confirmOutboundByKey): it went out.
      if (allItemsConfirmed(send)) outcomes.push({ ...base, state: send.ack >= 2 ? 'delivered' : 'sent', reason: null });
      else outcomes.push(idempotent ? { ...base, state: 'queued', reason: null } : { ...base, state: 'failed', reason: 'ERR_SEND_INTERRUPTED' });
      continue;
    }
    const keys = send.items.map((_, index) => idempotencyKey(send.id, index));
    const stored = send.contactId ? await storedMessagesByKeys(deps.db, scope, send.contactId, keys) : [];
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
      outcomes.push(await deliverStored(deps, scope, deps.channels.providerFor(connection), connection, send, first.ticketId, pending));
      const again = await messageAck(deps.db, first.id);
      const last = outcomes.at(-1);
      if (last && again) Object.assign(last, { externalId: again.externalId, ack: Math.max(last.ack, again.ack), messageId: first.id });
    } else if (idempotent) {
      // The connection is down: the pending messages wait; the send is re-checked on a later sweep.
      await renewClaim(deps.db, send.id, runtime.now());
    } else {
      await failPendingMessages(deps.db, scope, stored.map((m) => m.id), 'ERR_SEND_INTERRUPTED');
      outcomes.push({ ...linked, state: 'failed', reason: 'ERR_SEND_INTERRUPTED' });
    }
  }
  await settle(deps, outcomes);
  return outcomes.length;
}

/** Sends of a deleted connection (its id set to null) can never go: failed with ERR_NO_WAPP_FOUND. */
async function failOrphans(deps: OutboundDeps): Promise<void> {
  const ids = await orphanSendIds(deps.db);
  if (ids.length === 0) return;
  await settle(
    deps,
    ids.map((id) => ({ id, state: 'failed', reason: 'ERR_NO_WAPP_FOUND', externalId: null, ack: 0, ticketId: null, messageId: null })),
    ['queued'],
  );
}

/** One sweep: the sources queue what became due, stale claims are re-checked, connections with due sends are woken. */
export async function sweepOutbound(deps: OutboundDeps): Promise<void> {
  const { runtime, sweepHooks } = deps.outbound;
  const now = runtime.now();
  // A failing source (schedules, campaigns) is logged and the rest of the sweep still runs.
  for (const hook of sweepHooks) {
    await hook(now).catch((error: unknown) => runtime.logger.error({ err: error }, 'outbound sweep hook failed'));
  }
  await recoverStaleClaims(deps);
  await failOrphans(deps);
  const due = await dueConnections(deps.db, now);
  for (const row of due) if (row.whatsappId !== null) await wakeOutbound(deps, { companyId: row.companyId }, [row.whatsappId]);
}
