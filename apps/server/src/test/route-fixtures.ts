import { randomUUID } from 'node:crypto';
import { addToCalendarDate } from '@atende/shared';
import { eq, sql, type SQL } from 'drizzle-orm';
import { announcements, apiKeys, pushSubscriptions, webhookDeliveries, webhooks, chatMessages, chats, chatUsers, campaigns, holidayPeriods, invoices, contactListItems, contactLists, fileListOptions, fileLists, helps, plans, prompts, queueIntegrations, queueOptions, schedules, stickers, userQueues } from '../platform/db/schema.js';
import type { TestContext } from './test-app.js';
import { createServiceDeskFactories } from './service-desk-factories.js';

/**
 * One of each entity a route can name, in one company: what the route-table
 * suites (cross-tenant probe, role matrix) fill the routes' ids with. Every name
 * and text carries `marker`, so an answer that shows any of them is a leak.
 */
export interface RouteFixture {
  /** The company the company routes name (`/companies/:id`). */
  companyId: number;
  /** The company the caller's "own company" routes name (`/companies/:id/schedules`, `listPlan`). */
  ownCompanyId: number;
  planId: number;
  /** A user other than the caller. */
  userId: number;
  /** The user "itself" routes edit (`PUT /users/:id` by anyone on its own record). */
  selfId: number;
  queueId: number;
  queueOptionId: number;
  promptId: number;
  integrationId: number;
  connectionId: number;
  contactId: number;
  contactNumber: string;
  ticketId: number;
  ticketUuid: string;
  messageId: number;
  messageExternalId: string;
  noteId: number;
  tagId: number;
  quickMessageId: number;
  /** A platform-wide help video (not any company's). */
  helpId: number;
  /** A schedule (issue 20), not yet due. */
  scheduleId: number;
  /** A contact list (issue 20) with one item. */
  contactListId: number;
  contactListItemId: number;
  /** An inactive campaign (issue 20) to the contact list. */
  campaignId: number;
  /** A file list (issue 20) with one option. */
  fileListId: number;
  /** A platform-wide announcement (issue 22), active. */
  announcementId: number;
  /** An internal chat (issue 22) owned by the author, with the agent as the other member and one message. */
  chatId: number;
  chatUuid: string;
  /** A paid invoice (issue 23): checkout answers 409 for it without calling the PSP. */
  invoiceId: number;
  /** A sticker (issue 32) shared with the company. */
  stickerId: number;
  /** A company API key (issue 34) made by the author. */
  apiKeyId: number;
  webhookId: number;
  webhookDeliveryId: number;
  /** A holiday period of the connection (issue 32), in the past. */
  holidayPeriodId: number;
  /** The endpoint of the author's Web Push subscription (issue 35); its host never resolves. */
  pushEndpoint: string;
  marker: string;
}

export interface FixtureOwners {
  /** The company whose records are made. */
  companyId: number;
  /** Who wrote the note, the quick message and the message, owns the open ticket and works in the queue. */
  authorId: number;
  /** Defaults: the fixture's own company and a user made here. */
  targetCompanyId?: number;
  targetPlanId?: number;
  selfId?: number;
}

let sequence = 0;

export async function seedRouteFixture(t: TestContext, owners: FixtureOwners, marker: string): Promise<RouteFixture> {
  const db = t.database.db;
  const sd = createServiceDeskFactories(db);
  const n = ++sequence;
  const { companyId, authorId } = owners;
  const [planRow] = await db.select({ id: plans.id }).from(plans).where(sql`${plans.id} = (select plan_id from companies where id = ${companyId})`);
  if (!planRow) throw new Error('company without a plan');
  // Limits never get in the way of the routes under test.
  await db.update(plans).set({ users: 1000, connections: 1000, queues: 1000 }).where(eq(plans.id, planRow.id));

  const user = await t.factories.buildUser(companyId, { name: `${marker} agent ${n}` });
  const queue = await t.factories.buildQueue(companyId, { name: `${marker} queue ${n}` });
  // The author works in the queue, so the routes that need the caller's queues let it through.
  await db.insert(userQueues).values({ companyId, userId: authorId, queueId: queue.id });
  const [option] = await db.insert(queueOptions).values({ companyId, queueId: queue.id, title: `${marker} option`, message: `${marker} option text`, option: '1' }).returning();
  const [prompt] = await db
    .insert(prompts)
    .values({ companyId, name: `${marker} prompt ${n}`, prompt: `${marker} prompt text`, apiKeySealed: t.app.services.secrets.seal('sk-probe'), queueId: queue.id })
    .returning();
  const [integration] = await db.insert(queueIntegrations).values({ companyId, type: 'webhook', name: `${marker}-integration-${n}`, urlN8N: 'http://127.0.0.1:9/hook' }).returning();
  const connection = await sd.buildConnection(companyId, { name: `${marker} phone ${n}`, isDefault: false });
  const contact = await sd.buildContact(companyId, { name: `${marker} customer ${n}`, email: `${marker.toLowerCase()}${n}@example.com`, extraInfo: [{ name: marker, value: marker }] });
  const ticket = await sd.buildTicket(companyId, { contactId: contact.id, whatsappId: connection.id, status: 'open', userId: authorId, unreadMessages: 1, lastMessage: `${marker} last` });
  const message = await sd.buildMessage(ticket, { body: `${marker} said hello`, fromMe: true, userId: authorId, externalId: `${marker}-msg-${n}` });
  const note = await sd.buildNote(companyId, ticket, authorId, `${marker} note`);
  const tag = await sd.buildTag(companyId, { name: `${marker} tag ${n}` });
  await sd.tagTicket(companyId, ticket.id, [tag.id]);
  const quick = await sd.buildQuickMessage(companyId, authorId, { shortcode: `${marker}-quick-${n}`, message: `${marker} quick text`, geral: true });
  // Platform data every company reads (like plans): no marker, it is nobody's secret.
  const [schedule] = await db
    .insert(schedules)
    .values({ companyId, body: `${marker} scheduled text`, contactId: contact.id, userId: authorId, sendAt: new Date('2999-01-01T10:00:00Z') })
    .returning();
  const [contactList] = await db.insert(contactLists).values({ companyId, name: `${marker} list ${n}` }).returning();
  const [contactListItem] = await db
    .insert(contactListItems)
    .values({ companyId, contactListId: contactList!.id, name: `${marker} person ${n}`, number: `55119${String(n).padStart(8, '0')}`, email: `${marker.toLowerCase()}.list${n}@example.com` })
    .returning();
  const [campaign] = await db
    .insert(campaigns)
    .values({ companyId, name: `${marker} campaign ${n}`, message1: `${marker} campaign text`, whatsappId: connection.id, contactListId: contactList!.id })
    .returning();
  const [fileList] = await db.insert(fileLists).values({ companyId, name: `${marker} files ${n}`, message: `${marker} files text` }).returning();
  await db.insert(fileListOptions).values({ companyId, fileListId: fileList!.id, name: `${marker} option` });
  const [help] = await db.insert(helps).values({ title: `Platform help ${n}`, video: `probe${n}`, description: 'Shown to every company' }).returning();
  const [announcement] = await db.insert(announcements).values({ title: `Platform announcement ${n}`, text: 'Shown to every company', priority: 2 }).returning();
  const [chat] = await db.insert(chats).values({ companyId, title: `${marker} chat ${n}`, ownerId: authorId, lastMessage: `${marker} chat text` }).returning();
  await db.insert(chatUsers).values([
    { companyId, chatId: chat!.id, userId: authorId },
    { companyId, chatId: chat!.id, userId: user.id, unreads: 1 },
  ]);
  await db.insert(chatMessages).values({ companyId, chatId: chat!.id, senderId: authorId, message: `${marker} chat text` });
  const [invoice] = await db
    .insert(invoices)
    .values({ companyId, detail: `${marker} invoice ${n}`, valueCents: 9900, dueDate: addToCalendarDate('2999-01-01', { days: n }), status: 'paid', paidAt: new Date() })
    .returning();
  const [sticker] = await db.insert(stickers).values({ companyId, name: `${marker}-sticker.webp`, path: `${companyId}/stickers/${marker}-${n}.webp`, mimetype: 'image/webp' }).returning();
  const [apiKey] = await db
    .insert(apiKeys)
    .values({ companyId, createdBy: authorId, name: `${marker} key ${n}`, prefix: `atk_${marker}${companyId}-${n}`, keyHash: `${marker}-hash-${companyId}-${n}`, scopes: ['tickets:read'] })
    .returning();
  const [holiday] = await db.insert(holidayPeriods).values({ companyId, whatsappId: connection.id, startDate: '2020-12-24', endDate: '2020-12-26', message: `${marker} holiday ${n}` }).returning();
  const pushEndpoint = `https://push.invalid/send/${marker}-${companyId}-${n}`;
  await db.insert(pushSubscriptions).values({ companyId, userId: authorId, endpoint: pushEndpoint, p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) });
  if (!apiKey || !sticker || !holiday || !invoice || !announcement || !chat || !option || !prompt || !integration || !help || !schedule || !contactList || !contactListItem || !campaign || !fileList) throw new Error('fixture not created');
  const [webhook] = await db
    .insert(webhooks)
    .values({ companyId, url: `https://${marker}.example.com/hook-${n}`, events: ['ticket.created'], description: `${marker} webhook ${n}`, secretSealed: t.app.services.secrets.seal(`whsec_${marker}`) })
    .returning();
  if (!webhook) throw new Error('fixture not created');
  const [delivery] = await db
    .insert(webhookDeliveries)
    .values({ companyId, webhookId: webhook.id, eventId: randomUUID(), event: 'ticket.created', orderingKey: `ticket:${marker}`, data: { marker }, status: 'failed' })
    .returning();
  if (!apiKey || !delivery || !sticker || !holiday || !invoice || !announcement || !chat || !option || !prompt || !integration || !help || !schedule || !contactList || !contactListItem || !campaign || !fileList) throw new Error('fixture not created');

  return {
    companyId: owners.targetCompanyId ?? companyId,
    ownCompanyId: companyId,
    planId: owners.targetPlanId ?? planRow.id,
    userId: user.id,
    selfId: owners.selfId ?? user.id,
    queueId: queue.id,
    queueOptionId: option.id,
    promptId: prompt.id,
    integrationId: integration.id,
    connectionId: connection.id,
    contactId: contact.id,
    contactNumber: contact.number,
    ticketId: ticket.id,
    ticketUuid: ticket.uuid,
    messageId: message.id,
    messageExternalId: message.externalId ?? '',
    noteId: note.id,
    tagId: tag.id,
    quickMessageId: quick.id,
    helpId: help.id,
    scheduleId: schedule.id,
    contactListId: contactList.id,
    contactListItemId: contactListItem.id,
    campaignId: campaign.id,
    fileListId: fileList.id,
    announcementId: announcement.id,
    chatId: chat.id,
    chatUuid: chat.uuid,
    invoiceId: invoice.id,
    stickerId: sticker.id,
    apiKeyId: apiKey.id,
    webhookId: webhook.id,
    webhookDeliveryId: delivery.id,
    holidayPeriodId: holiday.id,
    pushEndpoint,
    marker,
  };
}

/**
 * A checksum per table of one company's rows (every table with `company_id`,
 * plus the company's own row and its plan): equal before and after means
 * nothing of the company changed.
 */
export async function companyChecksums(t: TestContext, companyId: number): Promise<Record<string, string>> {
  const db = t.database.db;
  const rows = async <T>(query: SQL) => ((await db.execute(query)) as unknown as { rows: T[] }).rows;
  const tables = await rows<{ table_name: string }>(
    sql`select table_name from information_schema.columns where table_schema = 'public' and column_name = 'company_id' order by table_name`,
  );
  const sums: Record<string, string> = {};
  for (const { table_name: table } of tables) {
    const [row] = await rows<{ sum: string | null; count: string }>(
      sql`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as sum, count(*)::text as count from ${sql.identifier(table)} t where t.company_id = ${companyId}`,
    );
    sums[table] = `${row?.count ?? 0}:${row?.sum ?? ''}`;
  }
  const [company] = await rows<{ sum: string }>(
    sql`select md5(c::text || coalesce((select p::text from plans p where p.id = c.plan_id), '')) as sum from companies c where c.id = ${companyId}`,
  );
  sums['companies'] = company?.sum ?? 'missing';
  return sums;
}
