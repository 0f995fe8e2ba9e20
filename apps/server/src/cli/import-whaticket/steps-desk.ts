import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { contactExtraInfo, contacts, messages, quickMessages, tags, ticketNotes, tickets, ticketTags, userRatings } from '../../platform/db/schema.js';
import type { MediaOutcome } from './media.js';
import type { Finisher, ImportContext, Outcome, Step } from './run.js';
import type { SourceRow } from './source.js';
import { insertRows, queryRows } from './target.js';
import { bool, idOf, instantOr, int, lookup, mappedOf, optionalText, skip, text } from './values.js';

/** Rows already in Atende that stand for source rows: `(company, value)` pairs of a unique key. */
async function existingBy(context: ImportContext, query: (companies: number[], values: string[]) => ReturnType<typeof sql>, pairs: { companyId: number; value: string }[]) {
  if (context.dryRun || pairs.length === 0) return new Map<string, number>();
  const found = await queryRows<{ company_id: number; value: string; id: number }>(
    context.database.db,
    query(
      pairs.map((p) => p.companyId),
      pairs.map((p) => p.value),
    ),
  );
  return new Map(found.map((row) => [`${row.company_id}:${row.value}`, Number(row.id)]));
}

const contactsStep: Step = {
  table: 'Contacts',
  target: 'contacts',
  into: contacts,
  columns: (s) =>
    [
      't.name',
      't.number',
      s.column('Contacts', 'email'),
      s.column('Contacts', 'profilePicUrl'),
      s.column('Contacts', 'isGroup', 'boolean'),
      s.column('Contacts', 'whatsappId', 'int'),
      't."companyId"',
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const whatsappMap = await lookup(context, 'Whatsapps', rows, 'whatsappId');
    // Contacts Atende has of its own (a company revealed by an earlier run); a hidden company has none.
    const hidden = await context.hidden([...companyMap.values()].map((company) => company.id));
    const existing = await existingBy(
      context,
      (companies, numbers) => sql`select c.company_id, c.number as value, c.id from unnest(${sql.param(companies)}::int[], ${sql.param(numbers)}::text[]) as k(company_id, number),
        lateral (select company_id, number, id from contacts where company_id = k.company_id and number = k.number limit 1) as c`,
      rows.flatMap((row) => {
        const company = mappedOf(companyMap, row.companyId);
        return company && !hidden.has(company.id) ? [{ companyId: company.id, value: text(row.number) }] : [];
      }),
    );
    const ids = await context.map.allocate(contacts, rows.length);
    const inPage = new Set<string>();
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      const key = `${company.id}:${text(row.number)}`;
      const match = existing.get(key);
      if (match !== undefined) return { kind: 'match', sourceId: idOf(row), companyId: company.id, id: match, note: 'a contact of the same number already in Atende' };
      if (inPage.has(key)) return skip(idOf(row), 'a second contact of the same number');
      inPage.add(key);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          number: text(row.number),
          email: text(row.email),
          profile_pic_url: text(row.profilePicUrl),
          is_group: bool(row.isGroup, false),
          whatsapp_id: mappedOf(whatsappMap, row.whatsappId)?.id ?? null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const customFieldsStep: Step = {
  table: 'ContactCustomFields',
  target: 'contact_extra_info',
  into: contactExtraInfo,
  columns: () => 't.name, t.value, t."contactId"',
  async prepare(rows, context) {
    const contactMap = await lookup(context, 'Contacts', rows, 'contactId');
    const ids = await context.map.allocate(contactExtraInfo, rows.length);
    return rows.map((row, i): Outcome => {
      const contact = mappedOf(contactMap, row.contactId);
      if (!contact || contact.companyId === null) return skip(idOf(row), 'its contact was not imported');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: contact.companyId,
        row: { id: ids[i], company_id: contact.companyId, contact_id: contact.id, name: text(row.name), value: text(row.value) },
      };
    });
  },
};

const tagsStep: Step = {
  table: 'Tags',
  target: 'tags',
  into: tags,
  columns: (s) => ['t.name', 't.color', s.column('Tags', 'kanban', 'int'), 't."companyId"', 't."createdAt"', 't."updatedAt"'].join(', '),
  async prepare(rows, context) {
    const companyMap = await lookup(context, 'Companies', rows, 'companyId');
    const existing = await existingBy(
      context,
      (companies, names) => sql`select t.company_id, t.name as value, t.id from tags t
        join unnest(${sql.param(companies)}::int[], ${sql.param(names)}::text[]) as k(company_id, name) on t.company_id = k.company_id and t.name = k.name`,
      rows.flatMap((row) => {
        const company = mappedOf(companyMap, row.companyId);
        return company ? [{ companyId: company.id, value: text(row.name) }] : [];
      }),
    );
    const ids = await context.map.allocate(tags, rows.length);
    const inPage = new Map<string, number>();
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      const key = `${company.id}:${text(row.name)}`;
      const match = existing.get(key) ?? inPage.get(key);
      if (match !== undefined) return { kind: 'match', sourceId: idOf(row), companyId: company.id, id: match, note: 'a tag of the same name already in Atende' };
      inPage.set(key, ids[i]!);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          color: text(row.color) || '#A4CCCC',
          kanban: int(row.kanban),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Tickets keep their uuid (the whaticket client's addresses), states, agent, queue and
 * connection. Atende allows one open or pending ticket per contact and connection: one
 * that would be a second (a conversation Atende started after an earlier run) arrives closed.
 */
const ticketsStep: Step = {
  table: 'Tickets',
  target: 'tickets (and their dashboard cycles)',
  into: tickets,
  columns: (s) =>
    [
      't.uuid::text as uuid',
      't.status',
      s.column('Tickets', 'lastMessage'),
      't."contactId"',
      't."userId"',
      't."whatsappId"',
      't."queueId"',
      s.column('Tickets', 'isGroup', 'boolean'),
      s.column('Tickets', 'unreadMessages', 'int'),
      s.column('Tickets', 'chatbot', 'boolean'),
      s.column('Tickets', 'amountUsedBotQueues', 'int'),
      s.column('Tickets', 'useIntegration', 'boolean'),
      't."companyId"',
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const [contactMap, userMap, whatsappMap, queueMap] = await Promise.all([
      lookup(context, 'Contacts', rows, 'contactId'),
      lookup(context, 'Users', rows, 'userId'),
      lookup(context, 'Whatsapps', rows, 'whatsappId'),
      lookup(context, 'Queues', rows, 'queueId'),
    ]);
    const active = (status: string) => status === 'open' || status === 'pending';
    // Open tickets Atende has of its own (a company revealed by an earlier run); in a hidden company
    // only this import made tickets, and whaticket's own key keeps them one per contact and connection.
    const hidden = await context.hidden([...contactMap.values()].flatMap((contact) => (contact.companyId === null ? [] : [contact.companyId])));
    const candidates = rows.flatMap((row) => {
      const contact = mappedOf(contactMap, row.contactId);
      return contact && contact.companyId !== null && !hidden.has(contact.companyId) && active(text(row.status)) ? [contact.id] : [];
    });
    const busy = new Set<string>();
    if (!context.dryRun && candidates.length > 0) {
      const found = await queryRows<{ contact_id: number; whatsapp_id: number | null }>(
        context.database.db,
        sql`select t.contact_id, t.whatsapp_id from unnest(${sql.param(candidates)}::int[]) as k(contact_id),
          lateral (select contact_id, whatsapp_id from tickets where contact_id = k.contact_id and status in ('open', 'pending')) as t`,
      );
      for (const row of found) busy.add(`${row.contact_id}:${row.whatsapp_id ?? ''}`);
    }
    const uuids = rows.map((row) => text(row.uuid)).filter((u) => UUID.test(u));
    const usedUuids = context.dryRun
      ? new Set<string>()
      : new Set(
          (
            await queryRows<{ uuid: string }>(
              context.database.db,
              sql`select t.uuid from unnest(${sql.param(uuids)}::text[]) as k(uuid), lateral (select uuid from tickets where uuid = k.uuid limit 1) as t`,
            )
          ).map((r) => r.uuid),
        );
    const ids = await context.map.allocate(tickets, rows.length);
    return rows.map((row, i): Outcome => {
      const contact = mappedOf(contactMap, row.contactId);
      if (!contact || contact.companyId === null) return skip(idOf(row), 'its contact was not imported');
      const whatsappId = mappedOf(whatsappMap, row.whatsappId)?.id ?? null;
      const notes: string[] = [];
      let status = text(row.status);
      if (status !== 'open' && status !== 'pending' && status !== 'closed') {
        notes.push(`status "${status}" became closed`);
        status = 'closed';
      }
      const slot = `${contact.id}:${whatsappId ?? ''}`;
      if (active(status)) {
        if (busy.has(slot)) {
          notes.push('the contact already has an open ticket on that connection in Atende: arrived closed');
          status = 'closed';
        } else busy.add(slot);
      }
      let uuid = text(row.uuid);
      if (!UUID.test(uuid) || usedUuids.has(uuid)) uuid = randomUUID();
      const updatedAt = instantOr(row.updatedAt, row.createdAt);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: contact.companyId,
        note: notes.join('; ') || undefined,
        row: {
          id: ids[i],
          uuid,
          company_id: contact.companyId,
          contact_id: contact.id,
          whatsapp_id: whatsappId,
          user_id: mappedOf(userMap, row.userId)?.id ?? null,
          queue_id: mappedOf(queueMap, row.queueId)?.id ?? null,
          status,
          is_group: bool(row.isGroup, false),
          chatbot: bool(row.chatbot, false),
          unread_messages: int(row.unreadMessages),
          last_message: text(row.lastMessage),
          use_integration: bool(row.useIntegration, false),
          amount_used_bot_queues: int(row.amountUsedBotQueues),
          closed_at: status === 'closed' ? updatedAt : null,
          created_at: instantOr(row.createdAt),
          updated_at: updatedAt,
        },
      };
    });
  },
};

const ticketTagsStep: Step = {
  table: 'TicketTags',
  target: 'ticket_tags',
  key: ['ticketId', 'tagId'],
  columns: () => 't."createdAt"',
  async prepare(rows, context) {
    const ticketMap = await lookup(context, 'Tickets', rows, 'k_ticketId');
    const tagMap = await lookup(context, 'Tags', rows, 'k_tagId');
    return rows.map((row): Outcome => {
      const sourceId = `${String(row.k_ticketId)}:${String(row.k_tagId)}`;
      const ticket = mappedOf(ticketMap, row.k_ticketId);
      const tag = mappedOf(tagMap, row.k_tagId);
      if (!ticket || !tag || ticket.companyId === null) return skip(sourceId, `its ${ticket ? 'tag' : 'ticket'} was not imported`);
      return { kind: 'insert', sourceId, companyId: ticket.companyId, row: { company_id: ticket.companyId, ticket_id: ticket.id, tag_id: tag.id, created_at: instantOr(row.createdAt) } };
    });
  },
  async write(tx, inserts) {
    await insertRows(
      tx,
      ticketTags,
      inserts.map((o) => o.row),
      { onConflict: sql`on conflict do nothing` },
    );
  },
};

/** Whaticket's media types as Atende's: files by kind, the special kinds kept, text as none. */
function mediaTypeOf(mediaType: string | null, hasFile: boolean): string | null {
  if (!mediaType) return null;
  if (hasFile) {
    if (mediaType === 'document' || mediaType === 'documentMessage' || mediaType === 'documentWithCaptionMessage') return 'application';
    if (mediaType === 'sticker' || mediaType === 'stickerMessage') return 'image';
    if (mediaType.startsWith('image')) return 'image';
    if (mediaType.startsWith('video')) return 'video';
    if (mediaType.startsWith('audio') || mediaType === 'ptt') return 'audio';
    return mediaType;
  }
  if (['chat', 'conversation', 'extendedTextMessage', 'editedMessage', 'protocolMessage', 'reactionMessage'].includes(mediaType)) return null;
  return mediaType;
}

/** Copies the page's files a few at a time. */
async function copyAll(context: ImportContext, items: { sourceCompanyId: number; stored: string; targetCompanyId: number }[]): Promise<MediaOutcome[]> {
  const results: MediaOutcome[] = [];
  for (let i = 0; i < items.length; i += 16) {
    results.push(...(await Promise.all(items.slice(i, i + 16).map((item) => context.media.copy(item.sourceCompanyId, item.stored, item.targetCompanyId)))));
  }
  return results;
}

/**
 * Messages keep their WhatsApp id (`external_id`), so the acks, edits, deletions and
 * quotes of a connection paired again find them. A quote of a message imported later
 * (another ticket's, a later page's) is set by the `quotes` finisher.
 */
const messagesStep: Step = {
  table: 'Messages',
  target: 'messages (and their search terms)',
  into: messages,
  pageSize: 2000,
  joins: 'left join "Tickets" tk on tk.id = t."ticketId"',
  columns: (s) =>
    [
      't.body',
      't.ack',
      't.read',
      't."mediaType"',
      't."mediaUrl"',
      't."ticketId"',
      't."fromMe"',
      't."isDeleted"',
      't."contactId"',
      't."quotedMsgId"',
      s.column('Messages', 'isEdited', 'boolean'),
      't."createdAt"',
      't."updatedAt"',
      'tk."companyId" as "ticketCompanyId"',
      'tk."contactId" as "ticketContactId"',
      'tk."whatsappId" as "ticketWhatsappId"',
    ].join(', '),
  async prepare(rows, context) {
    const [ticketMap, contactMap, ticketContactMap, whatsappMap, quotedMap] = await Promise.all([
      lookup(context, 'Tickets', rows, 'ticketId'),
      lookup(context, 'Contacts', rows, 'contactId'),
      lookup(context, 'Contacts', rows, 'ticketContactId'),
      lookup(context, 'Whatsapps', rows, 'ticketWhatsappId'),
      lookup(context, 'Messages', rows, 'quotedMsgId'),
    ]);
    // Messages Atende already holds under the same WhatsApp id (received after an earlier run
    // revealed the company and its connection was paired again).
    const candidates = rows.flatMap((row) => {
      const ticket = mappedOf(ticketMap, row.ticketId);
      const whatsapp = mappedOf(whatsappMap, row.ticketWhatsappId);
      return ticket && whatsapp && ticket.companyId !== null ? [{ c: ticket.companyId, w: whatsapp.id, e: idOf(row) }] : [];
    });
    const hidden = await context.hidden(candidates.map((key) => key.c));
    const keys = candidates.filter((key) => !hidden.has(key.c));
    const existing = new Map<string, number>();
    if (!context.dryRun && keys.length > 0) {
      const found = await queryRows<{ external_id: string; id: number }>(
        context.database.db,
        sql`select m.external_id, m.id from messages m
          join jsonb_to_recordset(${JSON.stringify(keys)}::jsonb) as k(c int, w int, e text)
          on m.company_id = k.c and m.whatsapp_id = k.w and m.external_id = k.e and m.external_id is not null`,
      );
      for (const row of found) existing.set(row.external_id, Number(row.id));
    }
    const withFile = rows.map((row) => {
      const ticket = mappedOf(ticketMap, row.ticketId);
      return text(row.mediaUrl) && ticket?.companyId != null && row.ticketCompanyId !== null
        ? { sourceCompanyId: int(row.ticketCompanyId), stored: text(row.mediaUrl), targetCompanyId: ticket.companyId }
        : null;
    });
    const copied = await copyAll(
      context,
      withFile.filter((item) => item !== null),
    );
    const ids = await context.map.allocate(messages, rows.length);
    const inPage = new Map<string, number>();
    rows.forEach((row, i) => inPage.set(idOf(row), ids[i]!));
    let copyIndex = 0;
    return rows.map((row, i): Outcome => {
      const file = withFile[i] ? copied[copyIndex++] : undefined;
      const ticket = mappedOf(ticketMap, row.ticketId);
      if (!ticket || ticket.companyId === null) return skip(idOf(row), 'its ticket was not imported');
      const match = existing.get(idOf(row));
      if (match !== undefined) return { kind: 'match', sourceId: idOf(row), companyId: ticket.companyId, id: match, note: 'already in Atende under the same WhatsApp id' };
      const contact = mappedOf(contactMap, row.contactId) ?? mappedOf(ticketContactMap, row.ticketContactId);
      if (!contact) return skip(idOf(row), 'neither its contact nor its ticket contact was imported');
      const whatsappId = mappedOf(whatsappMap, row.ticketWhatsappId)?.id ?? null;
      const quoted = row.quotedMsgId === null ? null : (mappedOf(quotedMap, row.quotedMsgId)?.id ?? inPage.get(String(row.quotedMsgId)) ?? null);
      const fromMe = bool(row.fromMe, false);
      const notes: string[] = [];
      if (file && !file.ok) notes.push(file.reason);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: ticket.companyId,
        note: notes.join('; ') || undefined,
        row: {
          id: ids[i],
          company_id: ticket.companyId,
          ticket_id: ticket.id,
          contact_id: contact.id,
          whatsapp_id: whatsappId,
          external_id: idOf(row),
          body: text(row.body),
          from_me: fromMe,
          source: fromMe ? 'agent' : 'customer',
          ack: int(row.ack),
          read: bool(row.read, false),
          media_type: mediaTypeOf(optionalText(row.mediaType), Boolean(file)),
          media_path: file?.ok ? file.media.path : null,
          media_name: file ? (file.ok ? file.media.name : file.name) : null,
          quoted_msg_id: quoted,
          is_deleted: bool(row.isDeleted, false),
          is_edited: bool(row.isEdited, false),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** Quotes of messages imported after the quoting one (another ticket's, a later page's). */
const quotesFinisher: Finisher = {
  name: 'Messages.quotedMsgId',
  async run(context, report) {
    const pages = context.source.pages<SourceRow>('Messages', { columns: 't."quotedMsgId"', key: ['id'], size: 5000, where: 't."quotedMsgId" is not null' });
    for await (const page of pages) {
      report.source += page.length;
      const [messageMap, quotedMap] = await Promise.all([
        context.map.lookup(
          'Messages',
          page.map((row) => idOf(row)),
        ),
        lookup(context, 'Messages', page, 'quotedMsgId'),
      ]);
      const updates: { id: number; q: number }[] = [];
      for (const row of page) {
        const message = messageMap.get(idOf(row));
        const quoted = mappedOf(quotedMap, row.quotedMsgId);
        if (!message) continue;
        if (!quoted) report.skipped.set('the quoted message is not in whaticket', (report.skipped.get('the quoted message is not in whaticket') ?? 0) + 1);
        else updates.push({ id: message.id, q: quoted.id });
      }
      if (context.dryRun || updates.length === 0) {
        report.imported += updates.length;
        continue;
      }
      const result = (await context.database.db.execute(sql`update messages m set quoted_msg_id = u.q
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as u(id bigint, q bigint)
        where m.id = u.id and m.quoted_msg_id is null`)) as unknown as { rowCount?: number | null; affectedRows?: number };
      report.added += Number(result.rowCount ?? result.affectedRows ?? 0);
      report.imported += updates.length;
    }
  },
};

const notesStep: Step = {
  table: 'TicketNotes',
  target: 'ticket_notes',
  into: ticketNotes,
  columns: () => 't.note, t."userId", t."contactId", t."ticketId", t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const [ticketMap, contactMap, userMap] = await Promise.all([
      lookup(context, 'Tickets', rows, 'ticketId'),
      lookup(context, 'Contacts', rows, 'contactId'),
      lookup(context, 'Users', rows, 'userId'),
    ]);
    const ids = await context.map.allocate(ticketNotes, rows.length);
    return rows.map((row, i): Outcome => {
      const ticket = mappedOf(ticketMap, row.ticketId);
      const contact = mappedOf(contactMap, row.contactId);
      if (!ticket || ticket.companyId === null) return skip(idOf(row), 'no ticket (Atende keeps notes on tickets)');
      if (!contact) return skip(idOf(row), 'its contact was not imported');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: ticket.companyId,
        row: {
          id: ids[i],
          company_id: ticket.companyId,
          ticket_id: ticket.id,
          contact_id: contact.id,
          user_id: mappedOf(userMap, row.userId)?.id ?? null,
          note: text(row.note),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const quickMessagesStep: Step = {
  table: 'QuickMessages',
  target: 'quick_messages',
  into: quickMessages,
  columns: (s) =>
    [
      't.shortcode',
      't.message',
      't."companyId"',
      s.column('QuickMessages', 'userId', 'int'),
      s.column('QuickMessages', 'geral', 'boolean'),
      s.column('QuickMessages', 'mediaPath'),
      s.column('QuickMessages', 'mediaName'),
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const [companyMap, userMap] = await Promise.all([lookup(context, 'Companies', rows, 'companyId'), lookup(context, 'Users', rows, 'userId')]);
    const ids = await context.map.allocate(quickMessages, rows.length);
    const outcomes: Outcome[] = [];
    for (const [i, row] of rows.entries()) {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) {
        outcomes.push(skip(idOf(row), 'its company was not imported'));
        continue;
      }
      // Whaticket keeps a quick message's file in company<id>/quickMessage/.
      const stored = text(row.mediaPath);
      const file = stored ? await context.media.copy(int(row.companyId), stored.includes('/') ? stored : `quickMessage/${stored}`, company.id) : undefined;
      outcomes.push({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        note: file && !file.ok ? file.reason : undefined,
        row: {
          id: ids[i],
          company_id: company.id,
          user_id: mappedOf(userMap, row.userId)?.id ?? null,
          shortcode: text(row.shortcode),
          message: text(row.message),
          geral: bool(row.geral, false),
          media_path: file?.ok ? file.media.path : null,
          media_name: file?.ok ? text(row.mediaName) || file.media.name : null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      });
    }
    return outcomes;
  },
};

const ratingsStep: Step = {
  table: 'UserRatings',
  target: 'user_ratings',
  into: userRatings,
  columns: () => 't."ticketId", t."userId", t.rate, t."createdAt"',
  async prepare(rows, context) {
    const [ticketMap, userMap] = await Promise.all([lookup(context, 'Tickets', rows, 'ticketId'), lookup(context, 'Users', rows, 'userId')]);
    const rated = context.dryRun
      ? new Set<number>()
      : new Set(
          (
            await queryRows<{ ticket_id: number }>(
              context.database.db,
              sql`select ticket_id from user_ratings where ticket_id = any(${sql.param([...ticketMap.values()].map((t) => t.id))}::int[])`,
            )
          ).map((r) => Number(r.ticket_id)),
        );
    const ids = await context.map.allocate(userRatings, rows.length);
    return rows.map((row, i): Outcome => {
      const ticket = mappedOf(ticketMap, row.ticketId);
      const rate = int(row.rate);
      if (!ticket || ticket.companyId === null) return skip(idOf(row), 'its ticket was not imported');
      if (rate < 1 || rate > 3) return skip(idOf(row), 'a rate outside 1-3');
      if (rated.has(ticket.id)) return skip(idOf(row), 'a second rating of the same ticket (Atende keeps one)');
      rated.add(ticket.id);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: ticket.companyId,
        row: { id: ids[i], company_id: ticket.companyId, ticket_id: ticket.id, user_id: mappedOf(userMap, row.userId)?.id ?? null, rate, created_at: instantOr(row.createdAt) },
      };
    });
  },
};

export const deskSteps: Step[] = [contactsStep, customFieldsStep, tagsStep, ticketsStep, ticketTagsStep, messagesStep, notesStep, quickMessagesStep, ratingsStep];
export const deskFinishers: Finisher[] = [quotesFinisher];
