import type { PushPayload } from '@atende/shared';
import { defineJob, type JobDefinition } from '../../platform/jobs/jobs.js';
import { OutboundRefusedError, outboundPolicy } from '../../platform/http/outbound.js';
import type { Platform } from '../../platform/platform.js';
import { sendWebPush } from '../../platform/push/web-push.js';
import { loadMessageDetails } from '../messages/messages.repo.js';
import { findTicketDetail } from '../tickets/tickets.repo.js';
import { deleteSubscriptionById, findChatMessageForPush, listRecipients, type Audience, type PushRecipient } from './push.repo.js';
import { pushTexts, shortBody, type PushContent } from './push-texts.js';

export type PushDeps = Pick<Platform, 'db' | 'config' | 'jobs' | 'logger' | 'clock'>;

/**
 * One thing to tell: ids only (the handler reads what they are now). `message`: a customer's
 * message in a ticket; `waiting`: an agent put a ticket in a queue's waiting list; `chat`: an
 * internal chat message. `actorId`: who caused it, never told.
 */
export interface PushJobData {
  companyId: number;
  reason: 'message' | 'waiting' | 'chat';
  ticketId?: number;
  messageId?: number;
  actorId?: number;
}

/** How long a push service keeps an undelivered notification: a ticket's news is stale after a few hours. */
const PUSH_TTL_SECONDS = 6 * 3600;
const SEND_TIMEOUT_MS = 10_000;
/** Subscriptions posted to at once by one job. */
const SEND_CONCURRENCY = 8;

interface Planned {
  content: PushContent;
  audience: Audience;
  except: number[];
}

/** What a job is about, as it stands now; null when there is nothing (any more) to tell. */
async function plan(deps: PushDeps, data: PushJobData): Promise<Planned | null> {
  const scope = { companyId: data.companyId };
  if (data.reason === 'chat') {
    if (data.messageId === undefined) return null;
    const chat = await findChatMessageForPush(deps.db, scope, data.messageId);
    if (!chat) return null;
    const except = chat.senderId === null ? [] : [chat.senderId];
    return {
      content: {
        kind: 'chatMessages',
        url: `/chats/${chat.chatUuid}`,
        tag: `chat-${chat.chatUuid}`,
        text: (t) => ({ title: t.chatMessage(chat.senderName, chat.chatTitle), body: shortBody(chat.message) }),
      },
      audience: { users: chat.memberIds },
      except,
    };
  }
  if (data.ticketId === undefined) return null;
  const ticket = await findTicketDetail(deps.db, scope, data.ticketId);
  if (!ticket) return null;
  const name = ticket.contact.name;
  const url = `/tickets/${ticket.uuid}`;
  const tag = `ticket-${ticket.uuid}`;
  // A ticket the bot is answering is nobody's yet: its agents hear of it when the bot hands it over.
  const waiting = ticket.status === 'pending' && !ticket.chatbot;
  if (data.reason === 'waiting') {
    if (!waiting) return null;
    const queue = ticket.queue?.name;
    return {
      content: {
        kind: 'newTickets',
        url,
        tag,
        text: (t) => ({ title: queue ? t.newTicketIn(name, queue) : t.newTicket(name), body: shortBody(ticket.lastMessage) || t.waiting }),
      },
      audience: { waitingInQueue: ticket.queueId },
      except: data.actorId === undefined ? [] : [data.actorId],
    };
  }
  if (data.messageId === undefined) return null;
  const [message] = await loadMessageDetails(deps.db, scope, [data.messageId]);
  if (!message || message.fromMe || message.isDeleted) return null;
  const body = (t: Parameters<PushContent['text']>[0]) => shortBody(message.body) || t.media;
  if (ticket.status === 'open' && ticket.userId !== null) {
    return {
      content: { kind: 'ticketMessages', url, tag, text: (t) => ({ title: t.ticketMessage(name), body: body(t) }) },
      audience: { users: [ticket.userId] },
      except: [],
    };
  }
  if (!waiting) return null;
  return {
    content: { kind: 'newTickets', url, tag, text: (t) => ({ title: t.newTicket(name), body: body(t) }) },
    audience: { waitingInQueue: ticket.queueId },
    except: [],
  };
}

async function eachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const item = items[next++] as T;
      await work(item);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/** Sends one notification to each subscription of the job's audience; a subscription the push service says is gone is deleted. */
async function deliverPush(deps: PushDeps, data: PushJobData): Promise<{ sent: number; gone: number; failed: number }> {
  const result = { sent: 0, gone: 0, failed: 0 };
  const planned = await plan(deps, data);
  if (!planned) return result;
  const scope = { companyId: data.companyId };
  const recipients = await listRecipients(deps.db, scope, planned.content.kind, planned.audience, planned.except);
  const logger = deps.logger.child({ module: 'push' });
  const policy = outboundPolicy(deps.config);
  const forget = async (recipient: PushRecipient, why: string) => {
    await deleteSubscriptionById(deps.db, scope, recipient.id);
    logger.info({ companyId: data.companyId, userId: recipient.userId, subscriptionId: recipient.id, why }, 'push subscription removed');
  };
  await eachLimited(recipients, SEND_CONCURRENCY, async (recipient) => {
    const { title, body } = planned.content.text(pushTexts(recipient.language));
    const payload: PushPayload = { kind: planned.content.kind, title, body, url: planned.content.url, tag: planned.content.tag };
    try {
      const outcome = await sendWebPush(
        { policy, vapid: deps.config.vapid, subject: deps.config.VAPID_SUBJECT, now: deps.clock.now(), timeoutMs: SEND_TIMEOUT_MS },
        recipient,
        JSON.stringify(payload),
        { ttlSeconds: PUSH_TTL_SECONDS, urgency: planned.content.kind === 'chatMessages' ? 'normal' : 'high', topic: planned.content.tag },
      );
      if (outcome.kind === 'sent') result.sent++;
      else if (outcome.kind === 'gone') {
        result.gone++;
        await forget(recipient, `push service answered ${outcome.status}`);
      } else {
        result.failed++;
        logger.warn({ companyId: data.companyId, subscriptionId: recipient.id, status: outcome.status, detail: outcome.detail }, 'push not accepted');
      }
    } catch (error) {
      result.failed++;
      // An endpoint whose address the policy refuses will never be reached: it goes.
      if (error instanceof OutboundRefusedError) await forget(recipient, error.message);
      else logger.warn({ companyId: data.companyId, subscriptionId: recipient.id, err: error }, 'push not sent');
    }
  });
  return result;
}

/** The job that delivers; one attempt per subscription (a notification retried late is noise), the job retried once for its own failures. */
export function pushJob(deps: PushDeps): JobDefinition<PushJobData> {
  return defineJob<PushJobData>({
    name: 'push.deliver',
    options: { retryLimit: 1, retryDelay: 5, expireInSeconds: 120 },
    async handler(data) {
      await deliverPush(deps, data);
    },
  });
}
