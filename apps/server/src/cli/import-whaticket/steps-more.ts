import { sql } from 'drizzle-orm';
import {
  announcements,
  campaigns,
  campaignSettings,
  chatMessages,
  chats,
  chatUsers,
  contactListItems,
  contactLists,
  fileListOptions,
  fileLists,
  helps,
  invoices,
  outboundSends,
  schedules,
} from '../../platform/db/schema.js';
import type { Finisher, ImportContext, Outcome, Step } from './run.js';
import type { SourceRow } from './source.js';
import { insertRows, queryRows, type Mapped } from './target.js';
import { bool, cents, idOf, instant, instantOr, int, lookup, mappedOf, skip, text } from './values.js';

/** The rows of a table that only need their company (lists, file lists, campaign settings). */
async function companyOf(context: ImportContext, rows: SourceRow[], column = 'companyId') {
  return lookup(context, 'Companies', rows, column);
}

/**
 * Schedules keep their state. One whaticket never sent whose time has passed arrives as
 * ERRO (ERR_SCHEDULE_EXPIRED) rather than going out late, possibly months after.
 */
const schedulesStep: Step = {
  table: 'Schedules',
  target: 'schedules',
  into: schedules,
  columns: (s) =>
    [
      't.body',
      't."sendAt"',
      't."sentAt"',
      't."contactId"',
      't."ticketId"',
      't."userId"',
      't."companyId"',
      s.column('Schedules', 'status'),
      s.column('Schedules', 'whatsappId', 'int'),
      s.column('Schedules', 'mediaPath'),
      s.column('Schedules', 'mediaName'),
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const [contactMap, ticketMap, userMap, whatsappMap] = await Promise.all([
      lookup(context, 'Contacts', rows, 'contactId'),
      lookup(context, 'Tickets', rows, 'ticketId'),
      lookup(context, 'Users', rows, 'userId'),
      lookup(context, 'Whatsapps', rows, 'whatsappId'),
    ]);
    const ids = await context.map.allocate(schedules, rows.length);
    const outcomes: Outcome[] = [];
    for (const [i, row] of rows.entries()) {
      const contact = mappedOf(contactMap, row.contactId);
      if (!contact || contact.companyId === null) {
        outcomes.push(skip(idOf(row), 'its contact was not imported'));
        continue;
      }
      const sendAt = instantOr(row.sendAt, row.createdAt);
      const sentAt = instant(row.sentAt);
      let status = text(row.status);
      let reason: string | null = null;
      if (sentAt || status === 'ENVIADA') status = 'ENVIADA';
      else if (status === 'ERRO') reason = 'ERR_SCHEDULE_EXPIRED';
      else if (new Date(sendAt) <= context.startedAt) {
        status = 'ERRO';
        reason = 'ERR_SCHEDULE_EXPIRED';
      } else status = 'PENDENTE';
      const stored = text(row.mediaPath);
      const file = stored ? await context.media.copy(int(row.companyId), stored, contact.companyId) : undefined;
      outcomes.push({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: contact.companyId,
        note: [reason && text(row.status) !== 'ERRO' ? 'due while unsent: arrived as ERRO' : '', file && !file.ok ? file.reason : ''].filter(Boolean).join('; ') || undefined,
        row: {
          id: ids[i],
          company_id: contact.companyId,
          body: text(row.body),
          contact_id: contact.id,
          user_id: mappedOf(userMap, row.userId)?.id ?? null,
          send_at: sendAt,
          sent_at: sentAt,
          status,
          reason,
          whatsapp_id: mappedOf(whatsappMap, row.whatsappId)?.id ?? null,
          ticket_id: mappedOf(ticketMap, row.ticketId)?.id ?? null,
          media_path: file?.ok ? file.media.path : null,
          media_name: file?.ok ? text(row.mediaName) || file.media.name : null,
          media_mime: file?.ok ? file.media.mimeType : null,
          media_size: file?.ok ? file.media.size : null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      });
    }
    return outcomes;
  },
};

/** A table whose rows need only their company and a few text columns. */
function companyRowsStep(options: { table: string; target: string; into: typeof contactLists | typeof fileLists; columns: string; row: (row: SourceRow) => Record<string, unknown> }): Step {
  return {
    table: options.table,
    target: options.target,
    into: options.into,
    columns: () => options.columns,
    async prepare(rows, context) {
      const companyMap = await companyOf(context, rows);
      const ids = await context.map.allocate(options.into, rows.length);
      return rows.map((row, i): Outcome => {
        const company = mappedOf(companyMap, row.companyId);
        if (!company) return skip(idOf(row), 'its company was not imported');
        return {
          kind: 'insert',
          sourceId: idOf(row),
          companyId: company.id,
          row: { id: ids[i], company_id: company.id, ...options.row(row), created_at: instantOr(row.createdAt), updated_at: instantOr(row.updatedAt, row.createdAt) },
        };
      });
    },
  };
}

const contactListItemsStep: Step = {
  table: 'ContactListItems',
  target: 'contact_list_items',
  into: contactListItems,
  columns: () => 't.name, t.number, t.email, t."contactListId", t."isWhatsappValid", t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const listMap = await lookup(context, 'ContactLists', rows, 'contactListId');
    const pairs = rows.flatMap((row) => {
      const list = mappedOf(listMap, row.contactListId);
      return list ? [{ l: list.id, n: text(row.number) }] : [];
    });
    const present = new Set<string>();
    if (!context.dryRun && pairs.length > 0) {
      const found = await queryRows<{ contact_list_id: number; number: string }>(
        context.database.db,
        sql`select i.contact_list_id, i.number from contact_list_items i
          join jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as k(l int, n text) on i.contact_list_id = k.l and i.number = k.n`,
      );
      for (const row of found) present.add(`${row.contact_list_id}:${row.number}`);
    }
    const ids = await context.map.allocate(contactListItems, rows.length);
    return rows.map((row, i): Outcome => {
      const list = mappedOf(listMap, row.contactListId);
      if (!list || list.companyId === null) return skip(idOf(row), 'its list was not imported');
      const key = `${list.id}:${text(row.number)}`;
      if (present.has(key)) return skip(idOf(row), 'a number repeated in its list (Atende keeps it once)');
      present.add(key);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: list.companyId,
        row: {
          id: ids[i],
          company_id: list.companyId,
          contact_list_id: list.id,
          name: text(row.name),
          number: text(row.number),
          email: text(row.email),
          is_whatsapp_valid: row.isWhatsappValid === null ? null : bool(row.isWhatsappValid, false),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** A file list's option: whaticket keeps its file in company<id>/fileList/<list id>/. */
const fileOptionsStep: Step = {
  table: 'FilesOptions',
  target: 'file_list_options',
  into: fileListOptions,
  joins: 'left join "Files" f on f.id = t."fileId"',
  columns: () => 't.name, t.path, t."fileId", f."companyId" as "fileCompanyId"',
  async prepare(rows, context) {
    const listMap = await lookup(context, 'Files', rows, 'fileId');
    const ids = await context.map.allocate(fileListOptions, rows.length);
    const outcomes: Outcome[] = [];
    for (const [i, row] of rows.entries()) {
      const list = mappedOf(listMap, row.fileId);
      if (!list || list.companyId === null) {
        outcomes.push(skip(idOf(row), 'its file list was not imported'));
        continue;
      }
      const stored = text(row.path);
      const file = stored ? await context.media.copy(int(row.fileCompanyId), `fileList/${text(row.fileId)}/${stored}`, list.companyId) : undefined;
      outcomes.push({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: list.companyId,
        note: file && !file.ok ? file.reason : undefined,
        row: {
          id: ids[i],
          company_id: list.companyId,
          file_list_id: list.id,
          name: text(row.name),
          path: file?.ok ? file.media.path : null,
          file_name: file?.ok ? file.media.name : null,
          mime_type: file?.ok ? file.media.mimeType : null,
          size: file?.ok ? file.media.size : null,
          position: i,
        },
      });
    }
    return outcomes;
  },
};

const CAMPAIGN_STATES = new Set(['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA']);

/**
 * Campaigns arrive with their lists, messages and history, but none is resumed by the
 * import: one in progress arrives CANCELADA (its shipping records say who got it), one
 * scheduled arrives INATIVA, to be programmed again once its connection is paired.
 */
const campaignsStep: Step = {
  table: 'Campaigns',
  target: 'campaigns',
  into: campaigns,
  columns: (s) =>
    [
      't.name',
      't.message1',
      't.message2',
      't.message3',
      't.message4',
      't.message5',
      't.status',
      't.confirmation',
      't."mediaPath"',
      't."mediaName"',
      't."companyId"',
      't."contactListId"',
      't."whatsappId"',
      't."scheduledAt"',
      't."completedAt"',
      s.column('Campaigns', 'fileListId', 'int'),
      't."createdAt"',
      't."updatedAt"',
    ].join(', '),
  async prepare(rows, context) {
    const [companyMap, listMap, whatsappMap, fileListMap] = await Promise.all([
      companyOf(context, rows),
      lookup(context, 'ContactLists', rows, 'contactListId'),
      lookup(context, 'Whatsapps', rows, 'whatsappId'),
      lookup(context, 'Files', rows, 'fileListId'),
    ]);
    const ids = await context.map.allocate(campaigns, rows.length);
    const outcomes: Outcome[] = [];
    for (const [i, row] of rows.entries()) {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) {
        outcomes.push(skip(idOf(row), 'its company was not imported'));
        continue;
      }
      let status = text(row.status, 'INATIVA');
      const notes: string[] = [];
      if (status === 'EM_ANDAMENTO') {
        status = 'CANCELADA';
        notes.push('in progress in whaticket: arrived CANCELADA');
      } else if (status === 'PROGRAMADA') {
        status = 'INATIVA';
        notes.push('scheduled in whaticket: arrived INATIVA (program it again)');
      } else if (!CAMPAIGN_STATES.has(status)) status = 'INATIVA';
      const stored = text(row.mediaPath);
      const file = stored ? await context.media.copy(int(row.companyId), stored, company.id) : undefined;
      if (file && !file.ok) notes.push(file.reason);
      outcomes.push({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        note: notes.join('; ') || undefined,
        row: {
          id: ids[i],
          company_id: company.id,
          name: text(row.name),
          message1: text(row.message1),
          message2: text(row.message2),
          message3: text(row.message3),
          message4: text(row.message4),
          message5: text(row.message5),
          status,
          scheduled_at: instant(row.scheduledAt),
          completed_at: instant(row.completedAt),
          whatsapp_id: mappedOf(whatsappMap, row.whatsappId)?.id ?? null,
          contact_list_id: mappedOf(listMap, row.contactListId)?.id ?? null,
          file_list_id: mappedOf(fileListMap, row.fileListId)?.id ?? null,
          confirmation: bool(row.confirmation, false),
          media_path: file?.ok ? file.media.path : null,
          media_name: file?.ok ? text(row.mediaName) || file.media.name : null,
          media_mime: file?.ok ? file.media.mimeType : null,
          media_size: file?.ok ? file.media.size : null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      });
    }
    return outcomes;
  },
};

/**
 * A campaign's shipping records become its outbound sends, as history: one delivered
 * as `sent`, one never sent as `cancelled`. None is queued, so nothing goes out again.
 */
const shippingStep: Step = {
  table: 'CampaignShipping',
  target: 'outbound_sends (campaign)',
  into: outboundSends,
  joins: 'left join "Campaigns" c on c.id = t."campaignId"',
  columns: () => 't.number, t.message, t."campaignId", t."deliveredAt", t."createdAt", t."updatedAt", c."whatsappId" as "campaignWhatsappId"',
  async prepare(rows, context) {
    const [campaignMap, whatsappMap] = await Promise.all([lookup(context, 'Campaigns', rows, 'campaignId'), lookup(context, 'Whatsapps', rows, 'campaignWhatsappId')]);
    const pairs = rows.flatMap((row) => {
      const campaign = mappedOf(campaignMap, row.campaignId);
      return campaign && campaign.companyId !== null ? [{ c: campaign.companyId, s: campaign.id, r: text(row.number) }] : [];
    });
    const present = new Set<string>();
    if (!context.dryRun && pairs.length > 0) {
      const found = await queryRows<{ source_id: number; recipient: string }>(
        context.database.db,
        sql`select o.source_id, o.recipient from outbound_sends o
          join jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as k(c int, s int, r text)
          on o.company_id = k.c and o.kind = 'campaign' and o.source_id = k.s and o.recipient = k.r`,
      );
      for (const row of found) present.add(`${row.source_id}:${row.recipient}`);
    }
    const ids = await context.map.allocate(outboundSends, rows.length);
    return rows.map((row, i): Outcome => {
      const campaign = mappedOf(campaignMap, row.campaignId);
      if (!campaign || campaign.companyId === null) return skip(idOf(row), 'its campaign was not imported');
      const number = text(row.number);
      const key = `${campaign.id}:${number}`;
      if (present.has(key)) return skip(idOf(row), 'a second record of the same number in its campaign');
      present.add(key);
      const deliveredAt = instant(row.deliveredAt);
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: campaign.companyId,
        row: {
          id: ids[i],
          company_id: campaign.companyId,
          kind: 'campaign',
          source_id: campaign.id,
          recipient: number,
          whatsapp_id: mappedOf(whatsappMap, row.campaignWhatsappId)?.id ?? null,
          number: number.replace(/\D/g, ''),
          items: [{ body: text(row.message) }],
          state: deliveredAt ? 'sent' : 'cancelled',
          attempts: deliveredAt ? 1 : 0,
          not_before: instantOr(row.createdAt),
          sent_at: deliveredAt,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const campaignSettingsStep: Step = {
  table: 'CampaignSettings',
  target: 'campaign_settings',
  columns: () => 't.key, t.value, t."companyId"',
  async prepare(rows, context) {
    const companyMap = await companyOf(context, rows);
    return rows.map((row): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      let value: unknown = text(row.value);
      try {
        value = JSON.parse(text(row.value));
      } catch {
        // A plain string stays a string.
      }
      return { kind: 'insert', sourceId: idOf(row), companyId: company.id, row: { company_id: company.id, key: text(row.key), value } };
    });
  },
  async write(tx, inserts) {
    await insertRows(
      tx,
      campaignSettings,
      inserts.map((o) => o.row),
      { onConflict: sql`on conflict (company_id, key) do update set value = excluded.value, updated_at = now()` },
    );
  },
};

const chatsStep: Step = {
  table: 'Chats',
  target: 'chats',
  into: chats,
  columns: () => 't.title, t.uuid, t."ownerId", t."lastMessage", t."companyId", t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const [companyMap, ownerMap] = await Promise.all([companyOf(context, rows), lookup(context, 'Users', rows, 'ownerId')]);
    const ids = await context.map.allocate(chats, rows.length);
    return rows.map((row, i): Outcome => {
      const company = mappedOf(companyMap, row.companyId);
      const owner = mappedOf(ownerMap, row.ownerId);
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!owner) return skip(idOf(row), 'its owner was not imported');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          title: text(row.title),
          owner_id: owner.id,
          last_message: text(row.lastMessage),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

const chatUsersStep: Step = {
  table: 'ChatUsers',
  target: 'chat_users',
  columns: () => 't."chatId", t."userId", t.unreads, t."createdAt"',
  async prepare(rows, context) {
    const [chatMap, userMap] = await Promise.all([lookup(context, 'Chats', rows, 'chatId'), lookup(context, 'Users', rows, 'userId')]);
    return rows.map((row): Outcome => {
      const chat = mappedOf(chatMap, row.chatId);
      const user = mappedOf(userMap, row.userId);
      if (!chat || chat.companyId === null || !user) return skip(idOf(row), `its ${chat ? 'user' : 'chat'} was not imported`);
      return { kind: 'insert', sourceId: idOf(row), companyId: chat.companyId, row: { company_id: chat.companyId, chat_id: chat.id, user_id: user.id, unreads: int(row.unreads), created_at: instantOr(row.createdAt) } };
    });
  },
  async write(tx, inserts) {
    await insertRows(
      tx,
      chatUsers,
      inserts.map((o) => o.row),
      { onConflict: sql`on conflict do nothing` },
    );
  },
};

const chatMessagesStep: Step = {
  table: 'ChatMessages',
  target: 'chat_messages',
  into: chatMessages,
  columns: (s) => ['t."chatId"', 't."senderId"', 't.message', s.column('ChatMessages', 'mediaName'), 't."createdAt"'].join(', '),
  async prepare(rows, context) {
    const [chatMap, userMap] = await Promise.all([lookup(context, 'Chats', rows, 'chatId'), lookup(context, 'Users', rows, 'senderId')]);
    const ids = await context.map.allocate(chatMessages, rows.length);
    return rows.map((row, i): Outcome => {
      const chat = mappedOf(chatMap, row.chatId);
      if (!chat || chat.companyId === null) return skip(idOf(row), 'its chat was not imported');
      const attachment = text(row.mediaName);
      const message = text(row.message) || (attachment ? `[${attachment}]` : '');
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: chat.companyId,
        note: attachment ? 'its attachment was not copied (Atende chats carry text): named in the text' : undefined,
        row: { id: ids[i], company_id: chat.companyId, chat_id: chat.id, sender_id: mappedOf(userMap, row.senderId)?.id ?? null, message, created_at: instantOr(row.createdAt) },
      };
    });
  },
};

/** Announcements are platform-wide in Atende: each arrives for everyone, its image copied from whaticket's announcements folder. */
const announcementsStep: Step = {
  table: 'Announcements',
  target: 'announcements',
  into: announcements,
  columns: () => 't.priority, t.title, t.text, t."mediaPath", t."mediaName", t."companyId", t.status, t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const companyMap = await companyOf(context, rows);
    const ids = await context.map.allocate(announcements, rows.length);
    const outcomes: Outcome[] = [];
    for (const [i, row] of rows.entries()) {
      const company = mappedOf(companyMap, row.companyId);
      const stored = text(row.mediaPath);
      // Whaticket keeps announcement images in public/announcements/, outside the company folders.
      const file = stored && company ? await context.media.copyPublic(`announcements/${stored}`, company.id) : undefined;
      outcomes.push({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: null,
        note: [
          stored && !company ? 'its image was not copied (its company was not imported)' : '',
          file && !file.ok ? file.reason : '',
        ].filter(Boolean).join('; ') || undefined,
        row: {
          id: ids[i],
          title: text(row.title),
          text: text(row.text),
          priority: Math.min(3, Math.max(1, int(row.priority, 3))),
          status: bool(row.status, true),
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

const helpsStep: Step = {
  table: 'Helps',
  target: 'helps',
  into: helps,
  columns: (s) => ['t.title', 't.description', 't.video', s.column('Helps', 'link'), 't."createdAt"', 't."updatedAt"'].join(', '),
  async prepare(rows, context) {
    const ids = await context.map.allocate(helps, rows.length);
    return rows.map(
      (row, i): Outcome => ({
        kind: 'insert',
        sourceId: idOf(row),
        companyId: null,
        note: text(row.link) ? 'its link was added to its description' : undefined,
        row: {
          id: ids[i],
          title: text(row.title),
          video: text(row.video),
          description: [text(row.description), text(row.link)].filter(Boolean).join('\n'),
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      }),
    );
  },
};

const invoicesStep: Step = {
  table: 'Invoices',
  target: 'invoices',
  into: invoices,
  columns: () => 't.detail, t.status, t.value, t."dueDate", t."companyId", t."createdAt", t."updatedAt"',
  async prepare(rows, context) {
    const companyMap = await companyOf(context, rows);
    const days = rows.map((row) => /^\d{4}-\d{2}-\d{2}/.exec(text(row.dueDate))?.[0] ?? null);
    const pairs = rows.flatMap((row, i) => {
      const company = mappedOf(companyMap, row.companyId);
      return company && days[i] ? [{ c: company.id, d: days[i] }] : [];
    });
    const present = new Set<string>();
    if (!context.dryRun && pairs.length > 0) {
      const found = await queryRows<{ company_id: number; due_date: string }>(
        context.database.db,
        sql`select i.company_id, i.due_date::text as due_date from invoices i
          join jsonb_to_recordset(${JSON.stringify(pairs)}::jsonb) as k(c int, d date) on i.company_id = k.c and i.due_date = k.d`,
      );
      for (const row of found) present.add(`${row.company_id}:${row.due_date}`);
    }
    const ids = await context.map.allocate(invoices, rows.length);
    return rows.map((row, i): Outcome => {
      const company: Mapped | undefined = mappedOf(companyMap, row.companyId);
      const day = days[i];
      const value = cents(row.value);
      if (!company) return skip(idOf(row), 'its company was not imported');
      if (!day) return skip(idOf(row), 'no readable due date');
      if (value <= 0) return skip(idOf(row), 'no value (Atende invoices are for an amount)');
      const key = `${company.id}:${day}`;
      if (present.has(key)) return skip(idOf(row), 'a second invoice of the same company and due date (Atende keeps one)');
      present.add(key);
      const paid = text(row.status).toLowerCase() === 'paid';
      return {
        kind: 'insert',
        sourceId: idOf(row),
        companyId: company.id,
        row: {
          id: ids[i],
          company_id: company.id,
          detail: text(row.detail),
          value_cents: value,
          due_date: day,
          status: paid ? 'paid' : 'open',
          paid_at: paid ? instantOr(row.updatedAt, row.createdAt) : null,
          created_at: instantOr(row.createdAt),
          updated_at: instantOr(row.updatedAt, row.createdAt),
        },
      };
    });
  },
};

/** Connections whose session converted start once their company is revealed (not before: nothing may arrive in a hidden company). */
const sessionsFinisher: Finisher = {
  name: 'Whatsapps.session',
  async run(context, report) {
    if (context.dryRun) return;
    const started = await queryRows<{ id: number }>(
      context.database.db,
      sql`update whatsapps w set status = 'OPENING', updated_at = now()
        from companies c
        where c.id = w.company_id and c.importing and w.status = 'DISCONNECTED'
          and w.id in (select target_id from import_id_map where source = ${context.map.source} and source_table = 'Whatsapps')
          and exists (select 1 from baileys_auth_keys k where k.whatsapp_id = w.id and k.key = 'creds')
        returning w.id`,
    );
    report.added = started.length;
    if (started.length > 0) report.notes.set('connections that reconnect with their converted session', started.length);
  },
};

export const moreSteps: Step[] = [
  schedulesStep,
  companyRowsStep({ table: 'ContactLists', target: 'contact_lists', into: contactLists, columns: 't.name, t."companyId", t."createdAt", t."updatedAt"', row: (row) => ({ name: text(row.name) }) }),
  contactListItemsStep,
  companyRowsStep({
    table: 'Files',
    target: 'file_lists',
    into: fileLists,
    columns: 't.name, t.message, t."companyId", t."createdAt", t."updatedAt"',
    row: (row) => ({ name: text(row.name), message: text(row.message) }),
  }),
  fileOptionsStep,
  campaignsStep,
  shippingStep,
  campaignSettingsStep,
  chatsStep,
  chatUsersStep,
  chatMessagesStep,
  announcementsStep,
  helpsStep,
  invoicesStep,
];
export const moreFinishers: Finisher[] = [sessionsFinisher];
