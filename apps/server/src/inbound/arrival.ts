import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../platform/db/client.js';
import type { TenantScope } from '../platform/http/context.js';

/**
 * Where a new conversation waits from the moment its ticket exists: what the
 * bot would decide on its first turn without waiting for the customer. A
 * connection offering exactly one queue puts the ticket straight into it
 * (chatbot.ts `start`), unless the connection's own integration or prompt (the
 * plan allowing it) takes every new conversation first: that one stays without
 * a queue until the integration hands it over. Taken in the statement that
 * creates the ticket, so its first events reach only the users who may see it
 * (tickets.events `ticketRooms`), never the whole company for a moment.
 *
 * The bot's first turn still runs as for a ticket without a queue (greeting,
 * the queue's integration, prompt or option tree, business hours): the ticket
 * carries `bot_state.startDue` until it has (inbound-automation.ts `decide`).
 */
export function arrivalQueueSql(connection: string): string {
  return `case when not coalesce((
      select (${connection}.integration_id is not null and p.use_integrations) or (${connection}.prompt_id is not null and p.use_open_ai)
      from companies c join plans p on p.id = c.plan_id where c.id = ${connection}.company_id), false)
    then (select min(wq.queue_id) from whatsapp_queues wq where wq.whatsapp_id = ${connection}.id having count(*) = 1) end`;
}

/** `bot_state` of a ticket created in its arrival queue: the bot's first turn is still due. */
export const START_DUE_STATE = { startDue: true } as const;

/** The arrival queue of a connection (see arrivalQueueSql), for a ticket created one at a time. */
export async function arrivalQueue(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<number | null> {
  const result = (await db.execute(
    sql`select ${sql.raw(arrivalQueueSql('w'))} as queue_id from whatsapps w where w.company_id = ${scope.companyId} and w.id = ${whatsappId}`,
  )) as unknown as { rows: { queue_id: number | string | null }[] };
  const queueId = result.rows[0]?.queue_id;
  return queueId === null || queueId === undefined ? null : Number(queueId);
}
