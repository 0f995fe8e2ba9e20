import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSecretBox } from '../../platform/crypto/secret-box.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';
import { formatReport, importWhaticket } from './plan.js';
import type { ImportReport } from './run.js';
import { AWKWARD, createWhaticketDatabase, fillWhaticket, WHATICKET_PASSWORD, type WhaticketDatabase } from './whaticket-source.js';
import { createLocalMediaStore } from '../../platform/storage/local-media-store.js';

/**
 * The importer against a real whaticket v6 schema (its own migrations' dump, on the
 * PostgreSQL at 127.0.0.1:5432 whatever the target) filled with generated data of every
 * kind, imported into the test's Atende database (PGlite, or PostgreSQL under test:pg).
 */
const COMPANIES = 2;
const TICKETS = 12;
const MESSAGES_PER_TICKET = 5;

let t: TestContext;
let source: WhaticketDatabase;
let publicDir: string;

beforeAll(async () => {
  t = await createTestContext();
  source = await createWhaticketDatabase();
  publicDir = mkdtempSync(path.join(tmpdir(), 'whaticket-public-'));
  await fillWhaticket(source.pool, { companies: COMPANIES, tickets: TICKETS, messagesPerTicket: MESSAGES_PER_TICKET, publicDir });
}, 60_000);

afterAll(async () => {
  await t?.close();
  await source?.drop();
  if (publicDir) rmSync(publicDir, { recursive: true, force: true });
});

const run = (options: { dryRun?: boolean; stopAfterPages?: number; pageSize?: number } = {}) =>
  importWhaticket({
    from: source.url,
    database: t.database,
    mediaStore: createLocalMediaStore(path.join(t.config.DATA_DIR, 'media')),
    mediaFrom: publicDir,
    secrets: createSecretBox(t.config.ENCRYPTION_KEY),
    progress: null,
    ...options,
  });

const table = (report: ImportReport, name: string) => {
  const found = report.tables.find((entry) => entry.table === name);
  if (!found) throw new Error(`no report line for ${name}`);
  return found;
};

async function one<Row>(query: ReturnType<typeof sql>): Promise<Row> {
  const result = (await t.database.db.execute(query)) as unknown as { rows: Row[] };
  return result.rows[0]!;
}

const count = async (query: ReturnType<typeof sql>) => Number((await one<{ n: string | number }>(query)).n);

/** Where a whaticket row went. */
const target = (sourceTable: string, sourceId: string | number) =>
  count(sql`select target_id as n from import_id_map where source_table = ${sourceTable} and source_id = ${String(sourceId)}`);

async function superToken(): Promise<string> {
  return (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
}

describe('npm run import:whaticket', () => {
  it('a dry run writes nothing and reports what it would import and what it cannot, with why', async () => {
    const report = await run({ dryRun: true });
    expect(report.complete).toBe(true);
    expect(table(report, 'Messages').added).toBe(COMPANIES * TICKETS * MESSAGES_PER_TICKET + 6);
    expect(table(report, 'Users').skipped.get('its e-mail is already used in Atende (e-mails are unique across the platform)')).toBe(1);
    expect(table(report, 'TicketNotes').skipped.get('no ticket (Atende keeps notes on tickets)')).toBe(1);
    expect(report.notImported.map((entry) => entry.table)).toContain('TicketTraking');
    expect(await count(sql`select count(*) as n from companies`)).toBe(1);
    expect(await count(sql`select count(*) as n from import_id_map`)).toBe(0);
    const printed = formatReport(report);
    expect(printed).toContain('Dry run (nothing written)');
    expect(printed).toMatch(/TicketTraking \(\d+ rows\): /);
  });

  it('a run stopped midway leaves its companies hidden: no list shows them, their users cannot sign in', async () => {
    const report = await run({ stopAfterPages: 12, pageSize: 10 });
    expect(report.complete).toBe(false);
    expect(await count(sql`select count(*) as n from companies where importing`)).toBe(COMPANIES);
    const token = await superToken();
    const list = await t.request(token, 'GET', '/companies/list');
    expect(list.statusCode).toBe(200);
    expect((list.json() as { name: string }[]).map((c) => c.name)).toEqual(['Empresa 1']);
    const hiddenId = await target('Companies', 2);
    expect((await t.request(token, 'GET', `/companies/${hiddenId}`)).statusCode).toBe(404);
    const login = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'admin@empresa2.com', password: WHATICKET_PASSWORD } });
    expect(login.statusCode).toBe(401);
    // Nor does its connection's API token open the external API.
    const send = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: 'Bearer token-2' }, payload: { number: '5511900000001', body: 'oi' } });
    expect(send.json()).toEqual({ error: 'ERR_INVALID_API_TOKEN' });
  });

  it('a second run resumes and completes: counts per table match whaticket, with a sample field by field', async () => {
    const report = await run();
    expect(report.complete).toBe(true);
    const perCompany = (n: number) => n * COMPANIES;
    const expected: Record<string, number> = {
      Plans: 2,
      Companies: COMPANIES,
      Queues: perCompany(2),
      QueueOptions: perCompany(2),
      QueueIntegrations: COMPANIES,
      Prompts: COMPANIES,
      Whatsapps: COMPANIES,
      Users: perCompany(3) - 1,
      UserQueues: perCompany(2),
      WhatsappQueues: perCompany(2),
      Contacts: perCompany(TICKETS + 1),
      ContactCustomFields: COMPANIES,
      Tags: perCompany(2),
      Tickets: perCompany(TICKETS),
      TicketTags: perCompany(2),
      Messages: perCompany(TICKETS * MESSAGES_PER_TICKET) + 6,
      TicketNotes: COMPANIES,
      QuickMessages: COMPANIES,
      UserRatings: COMPANIES,
      Schedules: perCompany(3),
      ContactLists: COMPANIES,
      ContactListItems: perCompany(2),
      Files: COMPANIES,
      FilesOptions: COMPANIES,
      Campaigns: perCompany(2),
      CampaignShipping: perCompany(2),
      CampaignSettings: COMPANIES,
      Chats: COMPANIES,
      ChatUsers: perCompany(2),
      ChatMessages: COMPANIES,
      Announcements: 1,
      Helps: 1,
      Invoices: perCompany(2),
    };
    for (const [name, n] of Object.entries(expected)) expect(`${name}: ${table(report, name).imported}`).toBe(`${name}: ${n}`);
    // Every source row is either in Atende or skipped with a reason.
    for (const line of report.tables.filter((entry) => entry.target !== '')) {
      const skipped = [...line.skipped.values()].reduce((a, b) => a + b, 0);
      expect(`${line.table}: ${line.imported + skipped}`).toBe(`${line.table}: ${line.source}`);
    }
    expect(await count(sql`select count(*) as n from companies where importing`)).toBe(0);
    expect(await count(sql`select count(*) as n from messages`)).toBe(expected.Messages);
    expect(await count(sql`select count(*) as n from tickets`)).toBe(expected.Tickets);

    // A company, field by field.
    const companyId = await target('Companies', 1);
    const company = await one<Record<string, unknown>>(sql`select c.name, c.email, c.due_date::text as due_date, c.status, p.name as plan, p.value_cents, p.use_kanban
      from companies c join plans p on p.id = c.plan_id where c.id = ${companyId}`);
    expect(company).toEqual({ name: 'Empresa 1', email: 'contato@empresa1.com', due_date: '2027-03-10', status: true, plan: 'Plano Básico', value_cents: 9990, use_kanban: false });
    expect(await one(sql`select value from settings where company_id = ${companyId} and key = 'userRating'`)).toEqual({ value: 'enabled' });

    // A prompt and an integration, their secrets sealed, linked to their queue and connection.
    const secrets = createSecretBox(t.config.ENCRYPTION_KEY);
    const prompt = await one<{ name: string; api_key_sealed: string; queue: string; linked: string }>(sql`select p.name, p.api_key_sealed, q.name as queue,
        (select name from queues where prompt_id = p.id) as linked from prompts p join queues q on q.id = p.queue_id where p.company_id = ${companyId}`);
    expect({ ...prompt, api_key_sealed: secrets.open(prompt.api_key_sealed) }).toEqual({ name: 'Atendente IA', api_key_sealed: 'sk-test-123', queue: 'Suporte', linked: 'Suporte' });
    expect(
      await one(sql`select i.type, i.typebot_slug, i.url_n8n from queue_integrations i join whatsapps w on w.integration_id = i.id where w.company_id = ${companyId}`),
    ).toEqual({ type: 'typebot', typebot_slug: 'vendas', url_n8n: 'https://typebot.example/api' });

    // A ticket and its messages: states, agent, queue, tags, uuid kept.
    const ticketId = await target('Tickets', 1_000_001);
    const sourceTicket = (await source.pool.query<{ uuid: string }>(`select uuid::text from "Tickets" where id = 1000001`)).rows[0]!;
    const ticket = await one<Record<string, unknown>>(sql`select t.uuid, t.status, u.email as agent, q.name as queue, c.number, w.name as connection, t.unread_messages,
        (select array_agg(g.name order by g.name) from ticket_tags tt join tags g on g.id = tt.tag_id where tt.ticket_id = t.id) as tags
      from tickets t join contacts c on c.id = t.contact_id left join users u on u.id = t.user_id left join queues q on q.id = t.queue_id
      left join whatsapps w on w.id = t.whatsapp_id where t.id = ${ticketId}`);
    expect(ticket).toEqual({ uuid: sourceTicket.uuid, status: 'pending', agent: 'agente@empresa1.com', queue: 'Vendas', number: '5511901000001', connection: 'WhatsApp 1', unread_messages: 1, tags: ['Cliente VIP', 'Lead'] });

    const message = (externalId: string) =>
      one<Record<string, unknown>>(sql`select m.body, m.from_me, m.source, m.ack, m.is_deleted, m.is_edited, m.media_type, m.media_path, m.media_name, m.ticket_id, m.contact_id,
        (select q.external_id from messages q where q.id = m.quoted_msg_id) as quoted from messages m where m.external_id = ${externalId}`);
    expect(await message('M1-1-2')).toMatchObject({ body: 'Mensagem 2 do ticket 1', from_me: true, source: 'agent', ack: 3, ticket_id: ticketId, quoted: null });
    expect(await message(AWKWARD.deletedMessage)).toMatchObject({ is_deleted: true });
    expect(await message(AWKWARD.editedMessage)).toMatchObject({ is_edited: true, from_me: true });
    expect(await message(AWKWARD.crossQuote)).toMatchObject({ quoted: AWKWARD.quotedLater });
    const withMedia = await message(AWKWARD.mediaMessage);
    expect(withMedia).toMatchObject({ media_type: 'image', media_name: 'foto-1.jpg' });
    expect(String(withMedia.media_path)).toMatch(new RegExp(`^${companyId}/whaticket/`));
    expect(readFileSync(path.join(t.config.DATA_DIR, 'media', String(withMedia.media_path)))).toEqual(readFileSync(path.join(publicDir, 'company1', 'foto-1.jpg')));
    expect(await message(AWKWARD.missingMediaMessage)).toMatchObject({ media_type: 'audio', media_path: null, media_name: 'audio-perdido.ogg' });
    expect(table(report, 'Messages').notes.get('media file missing on disk')).toBe(1);

    // The awkward rows: a contact without tickets, a user without queues, a connection's converted session.
    expect(await count(sql`select count(*) as n from contacts where name = ${AWKWARD.contactWithoutTickets}`)).toBe(COMPANIES);
    expect(await one(sql`select profile, (select count(*)::int from user_queues q where q.user_id = u.id) as queues from users u where email = ${AWKWARD.userWithoutQueues}`)).toEqual({
      profile: 'user',
      queues: 0,
    });
    const connections = await t.database.db.execute(sql`select w.name, w.status, (select count(*)::int from baileys_auth_keys k where k.whatsapp_id = w.id) as keys
      from whatsapps w join import_id_map m on m.source_table = 'Whatsapps' and m.target_id = w.id order by w.name`);
    expect((connections as unknown as { rows: unknown[] }).rows).toEqual([
      { name: 'WhatsApp 1', status: 'OPENING', keys: 3 },
      { name: 'WhatsApp 2', status: 'DISCONNECTED', keys: 0 },
    ]);
    // History, not work: nothing is queued to go out again.
    expect(await count(sql`select count(*) as n from outbound_sends where state in ('queued', 'sending')`)).toBe(0);
    expect(await one(sql`select status, reason from schedules where body = 'Lembrete vencido' limit 1`)).toEqual({ status: 'ERRO', reason: 'ERR_SCHEDULE_EXPIRED' });
    expect(await one(sql`select status from schedules where body = 'Lembrete futuro' limit 1`)).toEqual({ status: 'PENDENTE' });
    expect(await one(sql`select status from campaigns where name = 'Natal' limit 1`)).toEqual({ status: 'CANCELADA' });
    expect(await one(sql`select state, sent_at is not null as sent from outbound_sends where number = '5511911110000' limit 1`)).toEqual({ state: 'sent', sent: true });
  });

  it('a third run adds nothing; a row added in whaticket meanwhile is added alone', async () => {
    const before = await count(sql`select count(*) as n from messages`);
    const again = await run();
    expect(again.tables.reduce((sum, entry) => sum + (entry.target === '' ? 0 : entry.added), 0)).toBe(0);
    expect(await count(sql`select count(*) as n from messages`)).toBe(before);

    // Meanwhile Atende (the company is visible now) got a conversation of its own with a number
    // whaticket also has, on the same connection.
    const companyId = await target('Companies', 2);
    const whatsappId = await target('Whatsapps', 2);
    const { id: contactId } = await one<{ id: number }>(
      sql`insert into contacts (company_id, name, number) values (${companyId}, 'Criado no Atende', '5511977770000') returning id`,
    );
    await t.database.db.execute(sql`insert into tickets (company_id, contact_id, whatsapp_id, status) values (${companyId}, ${contactId}, ${whatsappId}, 'open')`);
    await source.pool.query(`insert into "Contacts" (id, name, number, email, "isGroup", "companyId", "createdAt", "updatedAt")
      values (2900000, 'Novo no whaticket', '5511977770000', '', false, 2, now(), now())`);
    await source.pool.query(`insert into "Tickets" (id, status, "contactId", "whatsappId", "companyId", "isGroup", "createdAt", "updatedAt")
      values (2900000, 'open', 2900000, 2, 2, false, now(), now())`);
    await source.pool.query(`insert into "Messages" (id, body, ack, read, "ticketId", "createdAt", "updatedAt", "fromMe", "isDeleted", "companyId")
      values ('NEW-1', 'Chegou depois', 0, false, 2900000, now(), now(), false, false, 2)`);
    const later = await run();
    expect(table(later, 'Messages').added).toBe(1);
    expect(await count(sql`select count(*) as n from messages`)).toBe(before + 1);
    expect(table(later, 'Contacts').notes.get('a contact of the same number already in Atende')).toBe(1);
    expect(await target('Contacts', 2900000)).toBe(contactId);
    expect(table(later, 'Tickets').notes.get('the contact already has an open ticket on that connection in Atende: arrived closed')).toBe(1);
    expect(await one(sql`select status, contact_id from tickets where id = ${await target('Tickets', 2900000)}`)).toEqual({ status: 'closed', contact_id: contactId });
  });

  it('an imported user signs in through the real app with the old password, which is then rehashed with argon2', async () => {
    const session = await t.login('admin@empresa2.com', WHATICKET_PASSWORD);
    expect(session.companyId).toBe(await target('Companies', 2));
    const stored = await one<{ password_hash: string }>(sql`select password_hash from users where email = 'admin@empresa2.com'`);
    expect(stored.password_hash).toMatch(/^\$argon2/);
    // Still the same password after the rehash; a wrong one is refused.
    await t.login('admin@empresa2.com', WHATICKET_PASSWORD);
    const wrong = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'admin@empresa2.com', password: 'errada' } });
    expect(wrong.statusCode).toBe(401);

    // The imported agent reads its ticket's conversation, with the copied file behind a signed URL.
    const agent = await t.login('agente@empresa1.com', WHATICKET_PASSWORD);
    const ticketId = await target('Tickets', 1_000_001);
    const page = await t.request(agent.token, 'GET', `/messages/${ticketId}`);
    expect(page.statusCode).toBe(200);
    const photo = (page.json() as { messages: { body: string; mediaUrl: string | null }[] }).messages.find((m) => m.body === 'foto.jpg');
    expect(photo?.mediaUrl).toBeTruthy();
    const file = await t.app.inject({ method: 'GET', url: photo!.mediaUrl! });
    expect(file.statusCode).toBe(200);
    expect(file.rawPayload).toEqual(readFileSync(path.join(publicDir, 'company1', 'foto-1.jpg')));
    // The imported connection's API token is known once its company is revealed (its session is not paired).
    const send = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: 'Bearer token-2' }, payload: { number: '5511900000001', body: 'oi' } });
    expect(send.json()).not.toEqual({ error: 'ERR_INVALID_API_TOKEN' });
    // Another company's ticket stays out of reach.
    const foreign = await t.request(agent.token, 'GET', `/messages/${await target('Tickets', 2_000_001)}`);
    expect(foreign.statusCode).toBe(404);
  });
});
