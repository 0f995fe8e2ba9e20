import { arrivalQueueSql, START_DUE_STATE } from './arrival.js';
import { PRESENTED_MESSAGE_OBJECT } from '../modules/messages/messages.repo.js';
import { PRESENTED_TICKET_OBJECT } from '../modules/tickets/tickets.repo.js';
import { WEBHOOK_MEDIA_PATH_KEY, WEBHOOKS_DUE_CHANNEL } from '../modules/webhooks/webhook-outbox.js';

import type { SqlExecutor } from '../platform/db/client.js';
import type { InboundMessage } from './inbound-message.js';

/** One inbound message on its way into a batch: the chat's number and the list preview already worked out. */
export interface BatchItem {
  input: InboundMessage;
  number: string;
  preview: string;
}

export type BatchOutcome =
  /** `turnDue`: the message needs the bot's turn, and its `bot_turns` row is stored with it. */
  | { kind: 'stored'; ticketId: number; messageId: number; ticketCreated: boolean; turnDue: boolean }
  | { kind: 'duplicate' }
  /** A known contact without an open or pending ticket, or a contact another writer created meanwhile: the full path decides. */
  | { kind: 'missed' };

/** Messages of one chat share a key: their follow-ups run one after the other. */
export function chatKey(item: Pick<BatchItem, 'input' | 'number'>): string {
  return `${item.input.companyId}:${item.input.whatsappId}:${item.number}`;
}

interface BatchRow {
  ord: number;
  ticket_id: number | null;
  message_id: number | string | null;
  ticket_created: boolean;
  turn_due: boolean;
}

/** The statement behind `storeBatch` ($1: the batch as a JSON array of rows). */
const STORE_BATCH = `
  with input as (
    select * from jsonb_to_recordset($1::jsonb) as i(
      ord int, company_id int, whatsapp_id int, number text, contact_name text, is_group boolean, external_id text,
      body text, from_me boolean, media_type text, media_path text, media_name text, quoted_external_id text,
      sender_name text, created_at timestamptz, preview text, data_json jsonb, source text)
  ), known as (
    -- Looked up per number through the unique key: the planner takes the input for 100
    -- rows (a function's default), which against a table of a few thousand contacts
    -- made it scan them all.
    select c.id, c.company_id, c.number, c.name from (select distinct company_id, number from input) i
    cross join lateral (
      select c.id, c.company_id, c.number, c.name from contacts c where c.company_id = i.company_id and c.number = i.number limit 1
    ) c
  ), new_contacts as (
    insert into contacts (company_id, name, number, is_group, whatsapp_id)
    select distinct on (i.company_id, i.number) i.company_id, coalesce(nullif(btrim(i.contact_name), ''), i.number), i.number, i.is_group, i.whatsapp_id
    from input i
    where not exists (select 1 from known k where k.company_id = i.company_id and k.number = i.number)
    order by i.company_id, i.number, i.ord
    on conflict (company_id, number) do nothing
    returning *
  ), active as (
    select tk.id, tk.contact_id, tk.whatsapp_id, tk.status, tk.is_group, tk.chatbot, tk.use_integration, tk.prompt_id, tk.queue_id,
      (tk.bot_state ->> 'started') = 'true' as bot_started, (tk.bot_state ->> 'startDue') = 'true' as start_due
    from tickets tk join known k on k.id = tk.contact_id and k.company_id = tk.company_id
    where tk.status in ('open', 'pending') and (tk.company_id, tk.whatsapp_id, k.number) in (select company_id, whatsapp_id, number from input)
    for update of tk
  ), chats as (
    select i.company_id, i.whatsapp_id, i.number, count(*) filter (where not i.from_me)::int as unread,
      (array_agg(i.preview order by i.ord desc))[1] as last_message,
      max(coalesce(i.created_at, now())) filter (where not i.from_me) as last_customer_at
    from input i group by i.company_id, i.whatsapp_id, i.number
  ), connections as (
    -- What the automation's shortcut needs, read once per connection of the batch.
    select w.id, w.company_id, w.time_use_bot_queues as menu_wait,
      w.integration_id is null and w.prompt_id is null and not exists (select 1 from whatsapp_queues wq where wq.whatsapp_id = w.id) as idle,
      -- Whether business hours are in use, so a waiting ticket costs the automation nothing when they are not.
      (select st.value from settings st where st.company_id = w.company_id and st.key = 'scheduleType') as schedule_type,
      -- A holiday period not yet over (whaticket v6's, holiday_periods) may close the connection: the automation looks at its days.
      exists (select 1 from holiday_periods hp where hp.whatsapp_id = w.id and hp.active and hp.end_date >= current_date - 1) as holiday,
      ${arrivalQueueSql('w')} as arrival_queue_id
    from whatsapps w where w.id in (select whatsapp_id from input)
  ), new_tickets as (
    -- A new contact's ticket starts with this batch's messages already counted: it cannot be updated in the same statement.
    -- It starts where the bot would put it without the customer's answer (automation/arrival.ts): groups never meet the bot.
    insert into tickets (company_id, contact_id, whatsapp_id, status, is_group, unread_messages, last_message, last_customer_message_at, queue_id, bot_state)
    select nc.company_id, nc.id, ch.whatsapp_id, 'pending', nc.is_group, ch.unread, ch.last_message, ch.last_customer_at, q.queue_id,
      case when q.queue_id is null then '{}'::jsonb else '${JSON.stringify(START_DUE_STATE)}'::jsonb end
    from new_contacts nc join chats ch on ch.company_id = nc.company_id and ch.number = nc.number
    left join connections w on w.id = ch.whatsapp_id and w.company_id = ch.company_id
    cross join lateral (select case when nc.is_group then null else w.arrival_queue_id end as queue_id) q
    returning *
  ), targets as (
    select i.*, coalesce(k.id, nc.id) as contact_id, coalesce(a.id, nt.id) as ticket_id, nt.id is not null as on_new_ticket,
      -- The chat's first message of the batch is the one that opened the ticket.
      nt.id is not null and i.ord = min(i.ord) over (partition by i.company_id, i.whatsapp_id, i.number) as ticket_created,
      -- Whether the bot may have something to do with this customer message: only then is its
      -- turn written (bot_turns) and run. A ticket with an agent (open) never does; nor does a
      -- pending one whose bot is done (in a queue, or stopped with no menu to offer again) or
      -- that has no bot to meet (its connection offers none) when business hours are not used.
      not i.from_me and coalesce(i.source, 'customer') <> 'system' and i.media_type is distinct from 'call_log'
        and coalesce(a.status, 'pending') = 'pending' and not coalesce(a.is_group, nc.is_group, false)
        and (
          -- Created in its arrival queue, the bot's first turn is still due (arrival.ts).
          coalesce(a.start_due, nt.queue_id is not null)
          or coalesce(a.chatbot, false) or coalesce(a.use_integration, false) or a.prompt_id is not null
          -- Without a queue the bot may still start, or offer its menu again after the wait.
          or (coalesce(a.queue_id, nt.queue_id) is null and not coalesce(w.idle, false)
            and (not coalesce(a.bot_started, false) or coalesce(w.menu_wait, 0) > 0))
          or coalesce(w.schedule_type, 'disabled') <> 'disabled' or coalesce(w.holiday, false)
        ) as turn_due
    from input i
    left join known k on k.company_id = i.company_id and k.number = i.number
    left join new_contacts nc on nc.company_id = i.company_id and nc.number = i.number
    left join active a on a.contact_id = k.id and a.whatsapp_id = i.whatsapp_id
    left join new_tickets nt on nt.contact_id = nc.id and nt.whatsapp_id = i.whatsapp_id
    left join connections w on w.id = i.whatsapp_id and w.company_id = i.company_id
  ), numbered as (
    -- Ids drawn in arrival order (the sorted subquery is not flattened), so a chat's messages read in order.
    select o.*, nextval(pg_get_serial_sequence('messages', 'id')) as message_id
    from (select * from targets where ticket_id is not null order by ord) o
  ), stored as (
    insert into messages (id, company_id, ticket_id, contact_id, whatsapp_id, external_id, body, from_me, source, ack, read,
      media_type, media_path, media_name, quoted_msg_id, sender_name, created_at, data_json)
    overriding system value
    select n.message_id, n.company_id, n.ticket_id, n.contact_id, n.whatsapp_id, n.external_id, n.body, n.from_me,
      coalesce(n.source, case when n.from_me then 'phone' else 'customer' end), case when n.from_me then 1 else 0 end, n.from_me,
      n.media_type, n.media_path, n.media_name,
      (select q.id from messages q where q.company_id = n.company_id and q.whatsapp_id = n.whatsapp_id and q.external_id = n.quoted_external_id),
      n.sender_name, coalesce(n.created_at, now()), n.data_json
    from numbered n order by n.message_id
    on conflict (company_id, whatsapp_id, external_id) where external_id is not null do nothing
    returning *
  ), ticket_updates as (
    -- A message older than the ticket's newest (a webhook job re-run after a crash, a late
    -- redelivery) takes its place in the chat but not the preview, and times only move forward.
    -- The subquery sees the messages stored before this statement (its snapshot).
    update tickets tk set
      last_message = case when u.newest_at >= coalesce((select max(m.created_at) from messages m where m.ticket_id = tk.id), '-infinity'::timestamptz)
        then u.last_message else tk.last_message end,
      unread_messages = tk.unread_messages + u.unread, updated_at = greatest(tk.updated_at, u.newest_at),
      last_customer_message_at = greatest(u.last_customer_at, tk.last_customer_message_at)
    from (
      select n.ticket_id, count(*) filter (where not n.from_me)::int as unread,
        (array_agg(n.preview order by coalesce(n.created_at, now()) desc, n.ord desc))[1] as last_message,
        max(coalesce(n.created_at, now())) as newest_at,
        max(coalesce(n.created_at, now())) filter (where not n.from_me) as last_customer_at
      from numbered n join stored s on s.id = n.message_id
      where not n.on_new_ticket
      group by n.ticket_id
    ) u
    -- The ids as an array too, so the tickets are found through their key whatever the table's size.
    where tk.id = u.ticket_id and tk.id = any(array(select a.id from active a))
    returning tk.id
  ), turns as (
    -- Written with the message: the bot's answer survives a crash before it is decided.
    insert into bot_turns (message_id, company_id, ticket_id)
    select n.message_id, n.company_id, n.ticket_id from numbered n join stored s on s.id = n.message_id where n.turn_due
    returning message_id
  ), hooks as (
    -- The enabled webhooks of the batch's companies (issue 34): events are written only for those that listen.
    select h.id, h.company_id, h.events from webhooks h
    where h.enabled and h.company_id in (select distinct company_id from input)
  ), events as materialized (
    -- What the webhooks hear of the batch, presented as the API shows it (the rows this
    -- statement wrote are not visible to it: the new ticket, contact and message come from
    -- their RETURNING). One event id per event, whatever the number of webhooks; \`seq\` and
    -- \`rank\` put a ticket's creation before its first message.
    select e.*, gen_random_uuid()::text as event_id from (
      select 'ticket.created' as event, t.company_id, t.id as ticket_id, (select min(m.id) from stored m where m.ticket_id = t.id) as seq, 0 as rank,
        (${PRESENTED_TICKET_OBJECT})::jsonb as data
      from new_tickets t
      join new_contacts c on c.id = t.contact_id
      left join users u on u.id = t.user_id
      left join queues q on q.id = t.queue_id
      left join whatsapps w on w.id = t.whatsapp_id
      where exists (select 1 from hooks h where h.company_id = t.company_id and 'ticket.created' = any(h.events))
      union all
      select 'message.created', m.company_id, m.ticket_id, m.id, 1,
        (${PRESENTED_MESSAGE_OBJECT})::jsonb
          || case when m.media_path <> '' and not m.is_deleted then jsonb_build_object('${WEBHOOK_MEDIA_PATH_KEY}', m.media_path) else '{}'::jsonb end
      from stored m
      join (select id, name from known union all select id, name from new_contacts) c on c.id = m.contact_id
      left join messages qm on qm.id = m.quoted_msg_id and qm.company_id = m.company_id
      left join contacts qc on qc.id = qm.contact_id
      where exists (select 1 from hooks h where h.company_id = m.company_id and 'message.created' = any(h.events))
    ) e
  ), outbox as (
    -- Written with the messages (the outbox, modules/webhooks/webhook-outbox.ts), ids in each ticket's order.
    insert into webhook_deliveries (id, company_id, webhook_id, event_id, event, ordering_key, data)
    overriding system value
    select nextval(pg_get_serial_sequence('webhook_deliveries', 'id')), o.company_id, o.webhook_id, o.event_id, o.event, 'ticket:' || o.ticket_id, o.data
    from (
      select e.*, h.id as webhook_id from events e join hooks h on h.company_id = e.company_id and e.event = any(h.events)
      order by e.seq nulls first, e.rank, h.id
    ) o
    returning 1
  ), notified as (
    -- Heard by the senders at commit.
    select pg_notify('${WEBHOOKS_DUE_CHANNEL}', '') from (select 1 from outbox limit 1) x
  )
  select t.ord, t.ticket_id, s.id as message_id, t.ticket_created, (s.id is not null and t.turn_due) as turn_due,
    (select count(*) from notified) as notified
  from targets t
  left join numbered n on n.ord = t.ord
  left join stored s on s.id = n.message_id`;

/**
 * Stores a batch of inbound messages in one statement (group commit): the
 * contacts not known yet are created with a pending ticket each, the others'
 * open or pending tickets are locked (`for update`, which orders a chat's
 * messages against any other writer), the messages go in with ids in arrival
 * order, and each ticket's last message, unread count and customer-window time
 * move once for all its messages of the batch. A message whose external id is
 * already stored inserts nothing. The caller keeps two messages with one
 * external id out of the same batch (the second is a duplicate).
 *
 * A known contact without an active ticket is left to the full path, which
 * knows about ratings and locks the chat while it creates the ticket.
 */
export async function storeBatch(executor: SqlExecutor, items: BatchItem[]): Promise<BatchOutcome[]> {
  const rows = items.map(({ input, number, preview }, ord) => ({
    ord,
    company_id: input.companyId,
    whatsapp_id: input.whatsappId,
    number,
    contact_name: input.contactName ?? null,
    is_group: input.isGroup ?? false,
    external_id: input.externalId ?? null,
    body: input.body,
    from_me: input.fromMe ?? false,
    media_type: input.specialType ?? input.media?.mediaType ?? null,
    media_path: input.media?.path ?? null,
    media_name: input.media?.name ?? null,
    quoted_external_id: input.quotedExternalId ?? null,
    sender_name: input.senderName ?? null,
    created_at: input.timestamp?.toISOString() ?? null,
    preview,
    data_json: input.data ?? null,
    source: input.source ?? null,
  }));
  const result = (await executor.executeSql(STORE_BATCH, [JSON.stringify(rows)], { name: 'ingest_store_batch' })) as unknown as { rows: BatchRow[] };

  const outcomes: BatchOutcome[] = items.map(() => ({ kind: 'missed' }));
  for (const row of result.rows) {
    if (row.ticket_id === null) continue;
    outcomes[row.ord] =
      row.message_id === null
        ? { kind: 'duplicate' }
        : {
            kind: 'stored',
            ticketId: Number(row.ticket_id),
            messageId: Number(row.message_id),
            ticketCreated: row.ticket_created,
            turnDue: row.turn_due,
          };
  }
  return outcomes;
}

/** A message already stored under an external id: what a redelivery finds. */
export interface StoredMessageRef {
  item: BatchItem;
  ticketId: number;
  messageId: number;
}

/**
 * The stored messages of redelivered items (their external ids are taken), one
 * statement for all of them. Items whose message is gone (deleted since) are left out.
 */
export async function findRedelivered(executor: SqlExecutor, items: BatchItem[]): Promise<StoredMessageRef[]> {
  const keyed = items.filter((item) => item.input.externalId);
  if (keyed.length === 0) return [];
  const result = (await executor.executeSql(
    `select m.id, m.ticket_id, k.ord from jsonb_to_recordset($1::jsonb) as k(ord int, company_id int, whatsapp_id int, external_id text)
      join messages m on m.company_id = k.company_id and m.whatsapp_id = k.whatsapp_id and m.external_id = k.external_id
      order by k.ord`,
    [JSON.stringify(keyed.map(({ input }, ord) => ({ ord, company_id: input.companyId, whatsapp_id: input.whatsappId, external_id: input.externalId })))],
  )) as unknown as { rows: { id: number | string; ticket_id: number | string; ord: number }[] };
  return result.rows.flatMap((row) => {
    const item = keyed[row.ord];
    return item ? [{ item, ticketId: Number(row.ticket_id), messageId: Number(row.id) }] : [];
  });
}
