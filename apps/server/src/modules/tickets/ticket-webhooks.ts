import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import type { TenantScope } from '../../platform/http/context.js';
import { WEBHOOKS_DUE_CHANNEL } from '../webhooks/webhook-outbox.js';
import { PRESENTED_TICKET_OBJECT } from './tickets.repo.js';

/** The ticket columns whose change is a `ticket.updated` webhook event (issue 34: status, user, queue; tags are written by the tags service). */
const TICKET_WEBHOOK_COLUMNS = ['status', 'userId', 'queueId'] as const;

/** Whether a change of these ticket columns is heard by the webhooks. */
export function ticketChangeIsHeard(change: object): boolean {
  return TICKET_WEBHOOK_COLUMNS.some((column) => column in change);
}

/**
 * `ticket.updated` of tickets the automation changed in `tx` (a bot's transfer, an
 * inactivity close, an automatic assignment), written to the webhooks' outbox in one
 * statement for all of them, as the API presents each ticket now, in order with the
 * ticket's other events (`ticket:<id>`). Nothing is written, nor presented, when no
 * enabled webhook of the company listens. Called inside the transaction that changed
 * the tickets, never in one of its own.
 */
export async function recordTicketsUpdated(tx: DbOrTx, scope: TenantScope, ticketIds: readonly number[]): Promise<void> {
  if (ticketIds.length === 0) return;
  const ids = `{${[...new Set(ticketIds)].join(',')}}`;
  await tx.execute(sql`
    with hooks as (
      select h.id from webhooks h where h.company_id = ${scope.companyId} and h.enabled and 'ticket.updated' = any(h.events)
    ), events as materialized (
      select t.id as ticket_id, gen_random_uuid()::text as event_id, (${sql.raw(PRESENTED_TICKET_OBJECT)})::jsonb as data
      from tickets t
      join contacts c on c.id = t.contact_id
      left join users u on u.id = t.user_id
      left join queues q on q.id = t.queue_id
      left join whatsapps w on w.id = t.whatsapp_id
      where exists (select 1 from hooks) and t.company_id = ${scope.companyId} and t.id = any(${ids}::int[])
    ), inserted as (
      insert into webhook_deliveries (id, company_id, webhook_id, event_id, event, ordering_key, data)
      overriding system value
      select nextval(pg_get_serial_sequence('webhook_deliveries', 'id')), ${scope.companyId}, o.webhook_id, o.event_id, 'ticket.updated', 'ticket:' || o.ticket_id, o.data
      from (select e.*, h.id as webhook_id from events e cross join hooks h order by e.ticket_id, h.id) o
      returning 1
    )
    select pg_notify(${WEBHOOKS_DUE_CHANNEL}, '') from (select 1 from inserted limit 1) as any_inserted`);
}
