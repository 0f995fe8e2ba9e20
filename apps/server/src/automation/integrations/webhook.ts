import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { scheduleJob, type AutomationDeps, type WebhookRetryData } from '../automation-runtime.js';
import { queueIntegrations, type QueueIntegrationRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { outboundPolicy } from '../../platform/http/outbound.js';
import { loadAutomationTicket, type AutomationTicket } from '../automation.repo.js';
import { loadInboundTurn } from '../bot-turns.repo.js';
import type { BotReply } from '../bot-effects.js';
import type { PeerOutcome, PeerTurn } from '../peer-turn.js';

import { commandFrom } from './bot-command.js';
import { callPeer, isRecord, PeerError } from './peer-http.js';
import { inTenant } from '../../platform/db/tenant.js';
import { type InboundTurn } from '../../inbound/inbound-turn.js';

/**
 * n8n and generic webhooks: each customer message is POSTed as JSON, signed
 * with HMAC-SHA256 over the raw body (`X-Atende-Signature: sha256=<hex>`) under
 * the integration's signing secret. A JSON answer with text (`{"text": ...}`,
 * `{"messages": [...]}`) is sent back to the customer, and `queueId`, `userId`
 * or `handover: true` in it hands the ticket over. A failed delivery answers the
 * customer at once and is retried with backoff through durable jobs, so the
 * receiver still gets the event.
 */

const SIGNATURE_HEADER = 'x-atende-signature';

function signBody(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`;
}

/** The normalized message sent to the receiver. */
function webhookPayload(services: AutomationDeps, integration: QueueIntegrationRow, at: AutomationTicket, message: InboundTurn) {
  return {
    event: 'message.received',
    integration: { id: integration.id, type: integration.type, name: integration.name },
    companyId: at.ticket.companyId,
    ticket: { id: at.ticket.id, uuid: at.ticket.uuid, status: at.ticket.status, queueId: at.ticket.queueId, protocol: String(at.ticket.id) },
    contact: { id: at.ticket.contactId, name: at.contact.name, number: at.contact.number },
    whatsapp: at.connection ? { id: at.connection.id, name: at.connection.name } : null,
    message: {
      id: message.messageId,
      body: message.body,
      fromMe: false,
      mediaType: message.mediaType,
      mediaName: message.mediaName,
      mediaUrl: message.mediaPath ? services.media.signedUrl(message.mediaPath) : null,
    },
  };
}

async function deliver(services: AutomationDeps, integration: QueueIntegrationRow, at: AutomationTicket, message: InboundTurn, attempt: number) {
  const runtime = services.automation;
  const body = JSON.stringify(webhookPayload(services, integration, at, message));
  const secret = integration.signingSecretSealed ? services.secrets.open(integration.signingSecretSealed) : '';
  const headers: Record<string, string> = {
    'x-atende-event': 'message.received',
    // Lets the receiver drop a retried delivery it already handled.
    'x-atende-delivery': `${integration.id}-${message.messageId}`,
    'x-atende-attempt': String(attempt),
  };
  if (secret) headers[SIGNATURE_HEADER] = signBody(secret, body);
  // The exact bytes signed are the bytes sent.
  return callPeer(integration.urlN8N, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', ...headers },
    body,
    timeoutMs: runtime.httpTimeoutMs,
    outbound: outboundPolicy(services.config),
  });
}

function textsOf(value: unknown): string[] {
  if (typeof value === 'string') return value.trim() ? [value] : [];
  if (Array.isArray(value)) return value.flatMap(textsOf);
  if (isRecord(value)) {
    for (const key of ['text', 'message', 'reply', 'body'] as const) if (typeof value[key] === 'string') return textsOf(value[key]);
    if (Array.isArray(value.messages)) return textsOf(value.messages);
  }
  return [];
}

export async function webhookTurn(turn: PeerTurn, integration: QueueIntegrationRow): Promise<PeerOutcome> {
  const response = await deliver(turn.services, integration, turn.at, turn.message, 1);
  const replies: BotReply[] = textsOf(response.json).map((body) => ({ body, source: 'bot' }));
  const handover = commandFrom(response.json);
  return handover ? { replies, handover } : { replies };
}

/** Queues the next delivery attempt, or gives up after the last configured delay. */
export async function scheduleWebhookRetry(services: AutomationDeps, integration: QueueIntegrationRow, message: InboundTurn, failedAttempt: number): Promise<void> {
  const delays = services.automation.webhookRetryDelaysSeconds;
  const delay = delays[failedAttempt - 1];
  if (delay === undefined) {
    services.automation.logger.warn({ integrationId: integration.id, messageId: message.messageId }, 'webhook delivery abandoned');
    return;
  }
  const data: WebhookRetryData = {
    companyId: integration.companyId,
    integrationId: integration.id,
    ticketId: message.ticketId,
    messageId: message.messageId,
    attempt: failedAttempt + 1,
  };
  const job = services.automation.webhookRetryJob;
  if (!job) throw new Error('the automation jobs are not registered');
  await scheduleJob(services, job, data, delay);
}

/**
 * A retried delivery. The customer was already answered and the ticket handed
 * over when the first attempt failed, so a late reply is not sent.
 */
export async function retryWebhook(services: AutomationDeps, data: WebhookRetryData): Promise<void> {
  const scope: TenantScope = { companyId: data.companyId };
  const [integration] = await services.db
    .select()
    .from(queueIntegrations)
    .where(inTenant(queueIntegrations, scope, eq(queueIntegrations.id, data.integrationId)))
    .limit(1);
  const at = await loadAutomationTicket(services.db, scope, data.ticketId);
  const message = await loadInboundTurn(services.db, scope, data.messageId, data.ticketId);
  if (!integration || !at || !message) return;
  try {
    await deliver(services, integration, at, message, data.attempt);
  } catch (error) {
    if (error instanceof PeerError && error.refused) {
      // The URL was changed to an internal address since the first attempt.
      services.automation.logger.warn(
        { companyId: data.companyId, integrationId: integration.id, reason: error.message },
        'outgoing call refused (internal address; see OUTBOUND_ALLOW_PRIVATE): webhook delivery abandoned',
      );
      return;
    }
    services.automation.logger.warn({ err: error, attempt: data.attempt, integrationId: integration.id }, 'webhook delivery failed again');
    await scheduleWebhookRetry(services, integration, message, data.attempt);
  }
}

