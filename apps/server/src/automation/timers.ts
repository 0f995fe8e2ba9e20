import { sql } from 'drizzle-orm';
import type { AutomationDeps } from './automation-runtime.js';
import type { TenantScope } from '../platform/http/context.js';
import { findQueueRow, loadAutomationTicket } from './automation.repo.js';
import { automaticText, automationTexts } from './automation-texts.js';
import { applyTicketChange, deliverEffects, stageReplies, type BotReply } from './bot-effects.js';
import { handoverChange } from './handover.js';

/**
 * The connection timers (spec part 2 §2.2), run by a durable job every minute
 * against the clock it is given:
 * - `expiresTicket`: an open or pending ticket whose last message came from our
 *   side (agent or bot) and that saw no activity for that many minutes is closed,
 *   with `expiresInactiveMessage`. A customer still waiting for an answer is
 *   never closed on.
 * - `timeToTransfer`: a pending ticket still without a queue that many minutes
 *   after it started moves to `transferQueueId` (the bot stops).
 */

const BATCH = 200;

interface Due {
  id: number;
  company_id: number;
}

async function rows<T>(services: AutomationDeps, query: ReturnType<typeof sql>): Promise<T[]> {
  const result = (await services.db.execute(query)) as unknown as { rows: T[] };
  return result.rows;
}

export async function sweepTimers(services: AutomationDeps, now: Date): Promise<{ closed: number; transferred: number }> {
  const runtime = services.automation;
  let closed = 0;
  let transferred = 0;
  const at = now.toISOString();
  const inactive = await rows<Due>(
    services,
    sql`select t.id, t.company_id from tickets t join whatsapps w on w.id = t.whatsapp_id
      where w.expires_ticket > 0 and t.status in ('open', 'pending') and not t.is_group
        and t.updated_at < ${at}::timestamptz - make_interval(mins => w.expires_ticket)
        and coalesce((select m.from_me from messages m where m.ticket_id = t.id order by m.created_at desc, m.id desc limit 1), false)
      order by t.updated_at limit ${BATCH}`,
  );
  for (const due of inactive) {
    try {
      if (await closeInactive(services, { companyId: Number(due.company_id) }, Number(due.id), now)) closed += 1;
    } catch (error) {
      runtime.logger.error({ err: error, ticketId: due.id }, 'inactive ticket not closed');
    }
  }
  const waiting = await rows<Due>(
    services,
    sql`select t.id, t.company_id from tickets t join whatsapps w on w.id = t.whatsapp_id
      where w.time_to_transfer > 0 and w.transfer_queue_id is not null and t.status = 'pending' and t.queue_id is null and not t.is_group
        and t.created_at < ${at}::timestamptz - make_interval(mins => w.time_to_transfer)
      order by t.created_at limit ${BATCH}`,
  );
  for (const due of waiting) {
    try {
      if (await transferWaiting(services, { companyId: Number(due.company_id) }, Number(due.id), now)) transferred += 1;
    } catch (error) {
      runtime.logger.error({ err: error, ticketId: due.id }, 'waiting ticket not transferred');
    }
  }
  return { closed, transferred };
}

async function closeInactive(services: AutomationDeps, scope: TenantScope, ticketId: number, now: Date): Promise<boolean> {
  const done = await services.db.transaction(async (tx) => {
    const at = await loadAutomationTicket(tx, scope, ticketId, true);
    const minutes = at?.connection?.expiresTicket ?? 0;
    // Re-checked under the lock: a message may have arrived since the sweep's query.
    if (!at || minutes <= 0 || at.ticket.status === 'closed' || at.ticket.updatedAt.getTime() >= now.getTime() - minutes * 60_000) return null;
    const change = {
      ...(await handoverChange(tx, scope, at.ticket)),
      status: 'closed' as const,
      closedAt: now,
      unreadMessages: 0,
      queueOptionId: null,
    };
    await applyTicketChange(tx, scope, ticketId, change);
    const replies: BotReply[] = [];
    const text = at.connection?.expiresInactiveMessage.trim();
    if (text) {
      replies.push({
        body: automaticText(text, at, now),
        source: 'system',
      });
    }
    return { before: at.ticket, change, staged: await stageReplies(tx, scope, at, replies) };
  });
  if (!done) return false;
  await deliverEffects(services, scope, done.before, done);
  return true;
}

async function transferWaiting(services: AutomationDeps, scope: TenantScope, ticketId: number, now: Date): Promise<boolean> {
  const done = await services.db.transaction(async (tx) => {
    const at = await loadAutomationTicket(tx, scope, ticketId, true);
    const connection = at?.connection;
    if (!at || !connection?.transferQueueId || connection.timeToTransfer <= 0) return null;
    if (at.ticket.status !== 'pending' || at.ticket.queueId !== null) return null;
    if (at.ticket.createdAt.getTime() >= now.getTime() - connection.timeToTransfer * 60_000) return null;
    const change = { ...(await handoverChange(tx, scope, at.ticket, { queueId: connection.transferQueueId })), queueOptionId: null };
    if (change.queueId === undefined) return null;
    await applyTicketChange(tx, scope, ticketId, change);
    const replies: BotReply[] = [];
    if (at.settings.sendMsgTransfTicket === 'enabled') {
      const queue = change.queueId ? await findQueueRow(tx, scope, change.queueId) : null;
      if (queue) replies.push({ body: automaticText(automationTexts(at.settings).transferToQueue, at, now, { queue: queue.name }), source: 'system' });
    }
    return { before: at.ticket, change, staged: await stageReplies(tx, scope, at, replies) };
  });
  if (!done) return false;
  await deliverEffects(services, scope, done.before, done);
  return true;
}
