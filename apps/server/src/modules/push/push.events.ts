import type { SendJobOptions } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import { companyHasSubscriptions } from './push.repo.js';
import { pushJob, type PushDeps, type PushJobData } from './push-delivery.js';

/**
 * A customer's message is told a moment after it is stored: by then the bot has taken
 * (or not) a new conversation, and a ticket the bot is answering is nobody's to be told of.
 */
const MESSAGE_DELAY_SECONDS = 2;
/** How long a node remembers whether a company has any subscribed browser (no job is queued for one that has none). */
const HAS_SUBSCRIPTIONS_MS = 30_000;
const HAS_NONE_MS = 2_000;

/**
 * Web Push from the domain events: each becomes a `push.deliver` job (queued after the
 * change committed, never awaited by the request or the ingest that caused it), which
 * finds who to tell and posts to their browsers' push services. A notification is a
 * courtesy, like a socket event: one lost in a crash between commit and queueing is not
 * sent again (docs/architecture.md, "Push notifications").
 */
export function subscribePushEvents(deps: PushDeps & Pick<Platform, 'events'>): void {
  const job = pushJob(deps);
  deps.jobs.register(job);
  const logger = deps.logger.child({ module: 'push' });
  const known = new Map<number, { has: boolean; until: number }>();

  const hasSubscriptions = async (companyId: number): Promise<boolean> => {
    const now = Date.now();
    const cached = known.get(companyId);
    if (cached && cached.until > now) return cached.has;
    const has = await companyHasSubscriptions(deps.db, { companyId });
    known.set(companyId, { has, until: now + (has ? HAS_SUBSCRIPTIONS_MS : HAS_NONE_MS) });
    return has;
  };
  const queue = (data: PushJobData, options?: SendJobOptions) => {
    void hasSubscriptions(data.companyId)
      .then((has) => (has ? deps.jobs.send(job, data, options) : null))
      .catch((error: unknown) => logger.error({ err: error, companyId: data.companyId }, 'push not queued'));
  };

  deps.events.on('message.created', ({ companyId, ticket, message }) => {
    if (message.fromMe || ticket.status === 'closed') return;
    queue({ companyId, reason: 'message', ticketId: ticket.id, messageId: message.id }, { startAfter: MESSAGE_DELAY_SECONDS });
  });
  // Awaited by the agent's request (events.publish): the handler only starts the queueing.
  deps.events.on('ticket.changedByAgent', ({ ctx, previous, ticket }) => {
    const entersWaiting = ticket.status === 'pending' && (previous.status !== 'pending' || previous.queueId !== ticket.queueId);
    if (!entersWaiting) return;
    queue({ companyId: ctx.companyId, reason: 'waiting', ticketId: ticket.id, actorId: ctx.user.id });
  });
  deps.events.on('chat.message', ({ companyId, message }) => {
    queue({ companyId, reason: 'chat', messageId: message.id, ...(message.senderId === null ? {} : { actorId: message.senderId }) });
  });
}

