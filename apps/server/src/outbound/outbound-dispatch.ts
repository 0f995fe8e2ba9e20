/**
 * One dispatch run of the outbound engine for a connection (outbound-engine.ts):
 * claim due sends, hand them to the connection's ChannelProvider (straight, or
 * stored in the contact's ticket first), settle them, and keep the pacing gate.
 */
import { fillMessageVariables } from '@atende/shared';
import { providerKindOf, type ChannelGateway, type ChannelProvider } from '../modules/connections/channel-provider.js';
import { deliverPendingMessage, sendThrough, storePendingMessages } from '../modules/messages/outgoing-messages.js';
import { findOrCreateTicket } from '../modules/external-api/external-api.service.js';
import { findTicketDetail } from '../modules/tickets/tickets.repo.js';
import type { OutboundItem, OutboundSendRow, WhatsappRow } from '../platform/db/schema.js';
import { AppError } from '../platform/http/app-error.js';
import type { TenantScope } from '../platform/http/context.js';
import type { Platform } from '../platform/platform.js';
import { loadSetting } from '../modules/settings/settings.repo.js';
import { loadCampaignSettings } from './campaign-settings/campaign-settings.repo.js';
import { claim, companyTimeZone, findConnection, findRecipientContact, linkSendToTicket, loadGate, saveGate } from './outbound-claims.repo.js';
import { idempotencyKey, wakeOutbound, type DispatchData, type Outcome, type WakeDeps } from './outbound-engine.js';
import { settle, type SettleDeps } from './outbound.js';
import { isPaced, nextGate, type PacingSettings } from './pacing.js';

/** What storing a send in a conversation needs: the messages module's outgoing path and the ticket lookup. */
type ConversationDeps = Parameters<typeof findOrCreateTicket>[0] & Parameters<typeof storePendingMessages>[0] & Parameters<typeof deliverPendingMessage>[0];

/** Everything a dispatch run (and the sweep) uses. */
export type OutboundDeps = SettleDeps & WakeDeps & ConversationDeps & Pick<Platform, 'db' | 'events'> & { channels: ChannelGateway };

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

/** What a run fills the templates of its sends with: the company's clock and its campaign settings' variables. */
interface TemplateValues {
  timeZone: string;
  /** The company's language (setting `language`): the greeting of the day speaks it. */
  language: string;
  campaignVariables: { key: string; value: string }[];
  now(): Date;
}

type Recipient = { name: string; number: string; email: string };

/**
 * An item's text as it goes out: a template (a schedule's body, a campaign's
 * message) has its message variables filled now, for the recipient, with the
 * ticket's protocol when it goes into one; other items go as stored.
 */
function bodyOf(item: OutboundItem, send: OutboundSendRow, values: TemplateValues, recipient: Recipient | null, protocol: number | null): string {
  if (!item.template) return item.body;
  return fillMessageVariables(item.body, {
    contact: recipient ?? item.template.contact ?? { name: '', number: send.number, email: '' },
    protocol,
    now: values.now(),
    timeZone: values.timeZone,
    language: values.language,
    ...(send.kind === 'campaign' ? { custom: values.campaignVariables } : {}),
  });
}

/** A send without a ticket: each item straight to the channel. */
async function sendDirect(provider: ChannelProvider, connection: WhatsappRow, send: OutboundSendRow, values: TemplateValues): Promise<Outcome> {
  let first: { externalId: string; ack: number } | null = null;
  try {
    for (const [index, item] of send.items.entries()) {
      const sent = await sendThrough(provider, connection, {
        to: send.number,
        body: bodyOf(item, send, values, null, null),
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
async function sendInConversation(
  deps: OutboundDeps,
  scope: TenantScope,
  provider: ChannelProvider,
  connection: WhatsappRow,
  send: OutboundSendRow,
  values: TemplateValues,
): Promise<Outcome> {
  if (send.contactId === null) return { id: send.id, state: 'failed', reason: 'ERR_NO_CONTACT_FOUND', externalId: null, ack: 0, ticketId: null, messageId: null };
  const ticket = await findOrCreateTicket(deps, scope, send.contactId, connection.id);
  const recipient = send.items.some((item) => item.template) ? await findRecipientContact(deps.db, scope, send.contactId) : null;
  const userId = typeof send.details.userId === 'number' ? send.details.userId : null;
  const stored = await storePendingMessages(deps, scope, {
    ticketId: ticket.id,
    contactId: send.contactId,
    whatsappId: connection.id,
    userId,
    source: 'system',
    items: send.items.map((item, index) => ({
      message: { to: send.number, body: bodyOf(item, send, values, recipient, ticket.id), ...(item.media ? { media: item.media } : {}), idempotencyKey: idempotencyKey(send.id, index) },
      ...(item.media ? { media: item.media } : {}),
    })),
  });
  const messageId = stored[0]?.id ?? null;
  await linkSendToTicket(deps.db, scope, send.id, ticket.id, messageId);
  if (ticket.created) {
    const detail = await findTicketDetail(deps.db, scope, ticket.id);
    if (detail) deps.events.emit('ticket.updated', { companyId: scope.companyId, ticket: detail });
  }
  return deliverStored(deps, scope, provider, connection, send, ticket.id, stored.map((message) => message.id));
}

/** Delivers a conversation send's stored messages in order; the first refusal fails the send. */
export async function deliverStored(
  deps: OutboundDeps,
  scope: TenantScope,
  provider: ChannelProvider,
  connection: WhatsappRow,
  send: OutboundSendRow,
  ticketId: number,
  messageIds: number[],
): Promise<Outcome> {
  let first: { externalId: string | null; ack: number } | null = null;
  for (const id of messageIds) {
    const delivery = await deliverPendingMessage(deps, scope, id);
    first ??= { externalId: delivery.message.externalId, ack: delivery.message.ack };
    if (delivery.error) {
      const reason = await refusalReason(provider, connection, send.number, delivery.error);
      return { id: send.id, state: 'failed', reason, externalId: first.externalId, ack: first.ack, ticketId, messageId: messageIds[0] ?? null };
    }
  }
  const ack = first?.ack ?? 0;
  return { id: send.id, state: ack >= 2 ? 'delivered' : 'sent', reason: null, externalId: first?.externalId ?? null, ack, ticketId, messageId: messageIds[0] ?? null };
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
export async function dispatchConnection(deps: OutboundDeps, data: DispatchData): Promise<void> {
  const { runtime } = deps.outbound;
  const scope: TenantScope = { companyId: data.companyId };
  const startedAt = runtime.now().getTime();
  const connection = await findConnection(deps.db, data, data.whatsappId);
  if (!connection || connection.status !== 'CONNECTED') return;
  const provider = deps.channels.providerFor(connection);
  const settings = await loadCampaignSettings(deps.db, scope);
  const pacing: PacingSettings = {
    messageInterval: settings.messageInterval,
    longerIntervalAfter: settings.longerIntervalAfter,
    greaterInterval: settings.greaterInterval,
    maxPerSecond: settings.sendCaps[providerKindOf(connection.provider)],
  };
  const paced = isPaced(pacing);
  const values: TemplateValues = {
    timeZone: await companyTimeZone(deps.db, scope),
    language: await loadSetting(deps.db, scope, 'language'),
    campaignVariables: settings.variables, now: () => runtime.now() };
  for (;;) {
    const now = runtime.now();
    const gate = paced ? await loadGate(deps.db, scope, connection.id, now) : null;
    if (gate && gate.nextAt > now) {
      const wait = gate.nextAt.getTime() - now.getTime();
      if (now.getTime() + wait - startedAt <= runtime.runBudgetMs) {
        await runtime.sleep(wait);
        continue;
      }
      await wakeOutbound(deps, scope, [connection.id], gate.nextAt);
      return;
    }
    const batch = await claim(deps.db, scope, connection.id, paced ? 1 : runtime.batchSize, now);
    if (batch.length === 0) return;
    const dispatchOne = (send: OutboundSendRow) =>
      send.conversation ? sendInConversation(deps, scope, provider, connection, send, values) : sendDirect(provider, connection, send, values);
    const outcomes = await inPool(batch, paced ? 1 : runtime.concurrency, async (send) => {
      try {
        return await dispatchOne(send);
      } catch (error) {
        // Our own failure (the database) around the channel's answer: the claim stays and the sweep re-checks it.
        runtime.logger.error({ err: error, sendId: send.id }, 'outbound send not settled');
        return null;
      }
    });
    await settle(deps, outcomes.filter((outcome): outcome is Outcome => outcome !== null));
    if (gate) {
      const [sent] = batch;
      if (sent) await saveGate(deps.db, scope, connection.id, nextGate(pacing, gate, runtime.now(), sent.kind === 'campaign', runtime.random));
    }
    if (runtime.now().getTime() - startedAt > runtime.runBudgetMs) {
      await wakeOutbound(deps, scope, [connection.id]);
      return;
    }
  }
}
