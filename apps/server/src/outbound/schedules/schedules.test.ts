import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SANDBOX_NOT_ON_WHATSAPP_PREFIX } from '../../channels/sandbox/sandbox.provider.js';
import { companies, messages, outboundSends, sandboxOutbox, schedules } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { multipart, multipartForm, type FormField } from '../../test/multipart.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { queueDueSchedules } from './schedules.service.js';

/*
 * Schedules (spec part 2 §2.6, §5, §7) through the outbound engine, with a real
 * job runner (pg-boss on PGlite): created, listed, refused to other companies and
 * without the plan flag, sent on the contact's current ticket connection into that
 * ticket, ENVIADA or ERRO with the reason, never sent again.
 */

let t: ChannelTestContext;
let companyId: number;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let noPlanToken: string;
let defaultConnection: number;
let ticketConnection: number;
let contactId: number;
let ticketId: number;
let otherContactId: number;

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

beforeAll(async () => {
  t = await createChannelTestContext({ jobs: true, env: { OUTBOUND_SWEEP_SECONDS: '1' } });
  const sd = createServiceDeskFactories(t.database.db);
  const company = await t.factories.buildCompany();
  companyId = company.id;
  await t.database.db.update(companies).set({ timezone: 'America/Sao_Paulo' }).where(eq(companies.id, companyId));
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(companyId, { profile: 'user' })).login()).token;
  defaultConnection = (await sd.buildConnection(companyId, { name: 'Default', isDefault: true })).id;
  ticketConnection = (await sd.buildConnection(companyId, { name: 'Second', isDefault: false })).id;
  const contact = await sd.buildContact(companyId, { name: 'Carla Cliente' });
  contactId = contact.id;
  ticketId = (await sd.buildTicket(companyId, { contactId, whatsappId: ticketConnection, status: 'open' })).id;
  const other = await t.factories.buildCompany();
  otherToken = (await other.admin.login()).token;
  otherContactId = (await sd.buildContact(other.id, { name: 'Other customer' })).id;
  const noPlan = await t.factories.buildCompany({ plan: { useSchedules: false, useCampaigns: false } });
  noPlanToken = (await noPlan.admin.login()).token;
}, 60_000);
afterAll(async () => {
  await t?.close();
});

const inAnHour = () => new Date(Date.now() + 3_600_000).toISOString();

async function scheduleRow(id: number) {
  const [row] = await t.database.db.select().from(schedules).where(eq(schedules.id, id));
  return row;
}

describe('schedules API', () => {
  it('any user of the company creates, reads, lists, edits and deletes a schedule', async () => {
    const created = await t.request(agentToken, 'POST', '/schedules', { body: 'Lembrete: consulta amanhã', contactId, sendAt: inAnHour() });
    expect(created.statusCode).toBe(201);
    const schedule = created.json();
    expect(schedule).toMatchObject({ body: 'Lembrete: consulta amanhã', contactId, contact: { id: contactId, name: 'Carla Cliente' }, status: 'PENDENTE', sentAt: null });
    const list = await t.request(adminToken, 'GET', '/schedules?searchParam=CARLA');
    expect(list.statusCode).toBe(200);
    expect(list.json()).toMatchObject({ hasMore: false });
    expect(list.json().schedules.map((s: { id: number }) => s.id)).toContain(schedule.id);
    expect((await t.request(adminToken, 'GET', `/schedules/${schedule.id}`)).json()).toMatchObject({ id: schedule.id });
    const edited = await t.request(agentToken, 'PUT', `/schedules/${schedule.id}`, { body: 'Lembrete: consulta às 10h' });
    expect(edited.json()).toMatchObject({ body: 'Lembrete: consulta às 10h', contactId, status: 'PENDENTE' });
    expect((await t.request(agentToken, 'DELETE', `/schedules/${schedule.id}`)).statusCode).toBe(200);
    expect((await t.request(agentToken, 'GET', `/schedules/${schedule.id}`)).statusCode).toBe(404);
  });

  it('reads a send time without an offset in the company time zone', async () => {
    const created = await t.request(adminToken, 'POST', '/schedules', { body: 'Horário local', contactId, sendAt: '2999-03-10T09:30' });
    // São Paulo is UTC-3.
    expect(created.json().sendAt).toBe('2999-03-10T12:30:00.000Z');
  });

  it('validates the dialog rules: body of 5+, contact and sendAt required, real dates', async () => {
    const short = await t.request(adminToken, 'POST', '/schedules', { body: 'Oi', contactId, sendAt: inAnHour() });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toHaveProperty('body');
    const missing = await t.request(adminToken, 'POST', '/schedules', { body: 'Sem contato' });
    expect(Object.keys(missing.json().fields).sort()).toEqual(['contactId', 'sendAt']);
    expect((await t.request(adminToken, 'POST', '/schedules', { body: 'Data impossível', contactId, sendAt: '2026-02-30T10:00' })).statusCode).toBe(400);
  });

  it("another company's schedules and contacts answer 404", async () => {
    const mine = (await t.request(adminToken, 'POST', '/schedules', { body: 'Privado da empresa', contactId, sendAt: inAnHour() })).json();
    for (const [method, url, body] of [
      ['GET', `/schedules/${mine.id}`, undefined],
      ['PUT', `/schedules/${mine.id}`, { body: 'Tentativa alheia' }],
      ['DELETE', `/schedules/${mine.id}`, undefined],
      ['DELETE', `/schedules/${mine.id}/media-upload`, undefined],
    ] as const) {
      expect((await t.request(otherToken, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    expect((await t.request(otherToken, 'GET', '/schedules')).json().schedules).toEqual([]);
    const foreignContact = await t.request(adminToken, 'POST', '/schedules', { body: 'Contato de outra empresa', contactId: otherContactId, sendAt: inAnHour() });
    expect(foreignContact.statusCode).toBe(404);
    expect((await scheduleRow(mine.id))?.body).toBe('Privado da empresa');
  });

  it('every route is refused when the plan has no schedules', async () => {
    for (const [method, url] of [
      ['GET', '/schedules'],
      ['GET', '/schedules/1'],
      ['POST', '/schedules'],
      ['PUT', '/schedules/1'],
      ['DELETE', '/schedules/1'],
      ['POST', '/schedules/1/media-upload'],
      ['DELETE', '/schedules/1/media-upload'],
    ] as const) {
      const response = await t.request(noPlanToken, method, url, method === 'POST' || method === 'PUT' ? { body: 'Qualquer coisa' } : undefined);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', feature: 'useSchedules' });
    }
  });

  it('takes a .png/.jpg/.jpeg attachment and refuses other types', async () => {
    const schedule = (await t.request(adminToken, 'POST', '/schedules', { body: 'Com imagem anexada', contactId, sendAt: inAnHour() })).json();
    const bad = multipart('notes.txt', 'text/plain', Buffer.from('hello'));
    const refused = await t.app.inject({ method: 'POST', url: `/schedules/${schedule.id}/media-upload`, headers: { authorization: `Bearer ${adminToken}`, ...bad.headers }, payload: bad.payload });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_INVALID_FILE_TYPE' });
    const good = multipart('foto.png', 'image/png', PNG);
    const attached = await t.app.inject({ method: 'POST', url: `/schedules/${schedule.id}/media-upload`, headers: { authorization: `Bearer ${adminToken}`, ...good.headers }, payload: good.payload });
    expect(attached.statusCode).toBe(200);
    expect(attached.json()).toMatchObject({ mediaName: 'foto.png', mediaPath: 'foto.png' });
    expect(attached.json().mediaUrl).toMatch(/^\/media\//);
    const removed = await t.request(adminToken, 'DELETE', `/schedules/${schedule.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
  });

  it("takes the whaticket v6 client's multipart form: the fields as JSON in scheduleData, an optional image in file", async () => {
    const send = (method: 'POST' | 'PUT', url: string, fields: Record<string, FormField>) => {
      const form = multipartForm(fields);
      return t.app.inject({ method, url, headers: { authorization: `Bearer ${adminToken}`, ...form.headers }, payload: form.payload });
    };
    const data = { body: 'Lembrete pelo cliente v6', contactId, sendAt: inAnHour(), sentAt: '', geral: '', queueId: null, repeatEvery: '', atribuirUser: false, userId: null };
    // Without an image the client appends the text "null".
    const plain = await send('POST', '/schedules', { file: 'null', scheduleData: JSON.stringify(data) });
    expect(plain.statusCode).toBe(201);
    expect(plain.json()).toMatchObject({ body: 'Lembrete pelo cliente v6', contactId, mediaName: null });
    const withImage = await send('PUT', `/schedules/${plain.json().id}`, { file: { fileName: 'foto.png', mimeType: 'image/png', data: PNG }, scheduleData: JSON.stringify({ ...data, body: 'Lembrete com foto' }) });
    expect(withImage.statusCode).toBe(200);
    expect(withImage.json()).toMatchObject({ body: 'Lembrete com foto', mediaName: 'foto.png' });
    const broken = await send('POST', '/schedules', { scheduleData: '{not json' });
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { scheduleData: ['Invalid'] } });
  });
});

describe('sending a schedule', () => {
  it("a due schedule is sent once on the contact's ticket connection, into that ticket, and becomes ENVIADA; it can't be submitted again", async () => {
    const created = await t.request(agentToken, 'POST', '/schedules', { body: 'Sua consulta é hoje às 15h', contactId, sendAt: new Date(Date.now() - 1000).toISOString() });
    expect(created.statusCode).toBe(201);
    const id = created.json().id as number;
    const sent = await waitUntil(async () => {
      const row = await scheduleRow(id);
      return row?.status === 'ENVIADA' ? row : null;
    }, 15_000, 'schedule sent');
    expect(sent).toMatchObject({ whatsappId: ticketConnection, ticketId, reason: null });
    expect(sent.sentAt).toBeInstanceOf(Date);
    const outbox = await t.database.db
      .select()
      .from(sandboxOutbox)
      .where(and(eq(sandboxOutbox.whatsappId, ticketConnection), eq(sandboxOutbox.body, 'Sua consulta é hoje às 15h')));
    expect(outbox).toHaveLength(1);
    const stored = await t.database.db.select().from(messages).where(and(eq(messages.ticketId, ticketId), eq(messages.body, 'Sua consulta é hoje às 15h')));
    expect(stored).toMatchObject([{ fromMe: true, sendStatus: 'sent' }]);
    const [send] = await t.database.db.select().from(outboundSends).where(and(eq(outboundSends.kind, 'schedule'), eq(outboundSends.sourceId, id)));
    expect(send).toMatchObject({ state: 'delivered', ticketId, messageId: stored[0]?.id });

    const again = await t.request(agentToken, 'PUT', `/schedules/${id}`, { sendAt: new Date(Date.now() - 1000).toISOString() });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ error: 'ERR_SCHEDULE_ALREADY_SENT' });
    await queueDueSchedules(t.app.services);
    expect(await t.database.db.select().from(sandboxOutbox).where(eq(sandboxOutbox.body, 'Sua consulta é hoje às 15h'))).toHaveLength(1);
  });

  it('its message variables are filled when it goes out, for its contact and the ticket it goes into; unknown ones are refused on save', async () => {
    const unknown = await t.request(agentToken, 'POST', '/schedules', { body: 'Olá {{nme}}, seu {cupom} chegou', contactId, sendAt: inAnHour() });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { body: ['{{nme}}', '{cupom}'] } });
    const pending = (await t.request(agentToken, 'POST', '/schedules', { body: 'Lembrete para {nome}', contactId, sendAt: inAnHour() })).json();
    const edited = await t.request(agentToken, 'PUT', `/schedules/${pending.id}`, { body: 'Lembrete para {{firstName}} {{x}}' });
    expect(edited.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { body: ['{{x}}'] } });

    const template = 'Oi {{firstName}} ({nome}), protocolo {protocolo}, {{ms}}! Hoje é {{data}}.';
    const id = (await t.request(agentToken, 'POST', '/schedules', { body: template, contactId, sendAt: new Date(Date.now() - 1000).toISOString() })).json().id as number;
    const sent = await waitUntil(async () => ((await scheduleRow(id))?.status === 'ENVIADA' ? scheduleRow(id) : null), 15_000, 'schedule sent');
    expect(sent).toMatchObject({ ticketId, body: template });
    const [send] = await t.database.db.select().from(outboundSends).where(and(eq(outboundSends.kind, 'schedule'), eq(outboundSends.sourceId, id)));
    const [message] = await t.database.db.select().from(messages).where(eq(messages.id, send?.messageId ?? 0));
    const body = message?.body ?? '';
    expect(body).toMatch(new RegExp(`^Oi Carla \\(Carla Cliente\\), protocolo ${ticketId}, (Bom dia|Boa tarde|Boa noite)! Hoje é \\d\\d/\\d\\d/\\d{4}\\.$`));
    const outbox = await t.database.db.select({ body: sandboxOutbox.body }).from(sandboxOutbox).where(eq(sandboxOutbox.externalId, message?.externalId ?? ''));
    expect(outbox).toEqual([{ body }]);
    expect(body).not.toMatch(/[{}]/);
  });

  it('a contact without a ticket gets it on the default connection', async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const lone = await sd.buildContact(companyId, { name: 'Sem ticket' });
    const id = (await t.request(adminToken, 'POST', '/schedules', { body: 'Primeiro contato agendado', contactId: lone.id, sendAt: new Date().toISOString() })).json().id;
    const sent = await waitUntil(async () => ((await scheduleRow(id))?.status === 'ENVIADA' ? scheduleRow(id) : null), 15_000, 'schedule sent');
    expect(sent?.whatsappId).toBe(defaultConnection);
    expect(sent?.ticketId).not.toBeNull();
  });

  it('a number not on WhatsApp makes it ERRO with the reason; edited, it is PENDENTE again', async () => {
    const sd = createServiceDeskFactories(t.database.db);
    const bad = await sd.buildContact(companyId, { name: 'Número inválido', number: `${SANDBOX_NOT_ON_WHATSAPP_PREFIX}1199990000` });
    const id = (await t.request(adminToken, 'POST', '/schedules', { body: 'Não vai chegar', contactId: bad.id, sendAt: new Date().toISOString() })).json().id;
    const failed = await waitUntil(async () => ((await scheduleRow(id))?.status === 'ERRO' ? scheduleRow(id) : null), 15_000, 'schedule failed');
    expect(failed).toMatchObject({ reason: 'ERR_WAPP_INVALID_CONTACT', sentAt: null });
    expect((await t.request(adminToken, 'GET', `/schedules/${id}`)).json()).toMatchObject({ status: 'ERRO', reason: 'ERR_WAPP_INVALID_CONTACT' });
    const edited = await t.request(adminToken, 'PUT', `/schedules/${id}`, { sendAt: inAnHour() });
    expect(edited.json()).toMatchObject({ status: 'PENDENTE', reason: null });
    expect(await t.database.db.select().from(outboundSends).where(and(eq(outboundSends.kind, 'schedule'), eq(outboundSends.sourceId, id)))).toEqual([]);
  });

  it('one whose time passed longer ago than the overdue limit (24 h) becomes ERRO, not sent', async () => {
    const [row] = await t.database.db
      .insert(schedules)
      .values({ companyId, body: 'Atrasado demais', contactId, sendAt: new Date(Date.now() - 25 * 3_600_000) })
      .returning();
    const [recent] = await t.database.db
      .insert(schedules)
      .values({ companyId, body: 'Atrasado pouco', contactId, sendAt: new Date(Date.now() - 23 * 3_600_000) })
      .returning();
    await queueDueSchedules(t.app.services);
    // The engine's own sweep may hold these rows (skip locked) when this call runs: wait for whichever commits.
    const expired = await waitUntil(async () => ((await scheduleRow(row?.id ?? 0))?.status === 'PENDENTE' ? null : scheduleRow(row?.id ?? 0)), 15_000, 'expired schedule settled');
    expect(expired).toMatchObject({ status: 'ERRO', reason: 'ERR_SCHEDULE_EXPIRED' });
    await waitUntil(async () => (await scheduleRow(recent?.id ?? 0))?.status === 'ENVIADA', 15_000, 'recent overdue schedule sent');
    expect(await t.database.db.select().from(sandboxOutbox).where(eq(sandboxOutbox.body, 'Atrasado demais'))).toEqual([]);
  });
});

describe('campaign settings', () => {
  it('answers the defaults 20/20/60 as key/JSON pairs, stores what is posted, refuses bad options', async () => {
    const defaults = await t.request(adminToken, 'GET', '/campaign-settings');
    expect(defaults.statusCode).toBe(200);
    expect(defaults.json()).toEqual(
      expect.arrayContaining([
        { key: 'messageInterval', value: '20' },
        { key: 'longerIntervalAfter', value: '20' },
        { key: 'greaterInterval', value: '60' },
        { key: 'variables', value: '[]' },
      ]),
    );
    const saved = await t.request(adminToken, 'POST', '/campaign-settings', { settings: { messageInterval: 5, variables: [{ key: 'loja', value: 'Centro' }] } });
    expect(saved.statusCode).toBe(200);
    expect(saved.json()).toEqual(expect.arrayContaining([{ key: 'messageInterval', value: '5' }, { key: 'greaterInterval', value: '60' }, { key: 'variables', value: '[{"key":"loja","value":"Centro"}]' }]));
    expect((await t.request(adminToken, 'POST', '/campaign-settings', { settings: { messageInterval: 7 } })).statusCode).toBe(400);
    expect((await t.request(adminToken, 'POST', '/campaign-settings', { settings: { variables: [{ key: 'a', value: '1' }, { key: 'a', value: '2' }] } })).statusCode).toBe(400);
    expect((await t.request(otherToken, 'GET', '/campaign-settings')).json()).toEqual(expect.arrayContaining([{ key: 'messageInterval', value: '20' }]));
  });

  it('is for admins of a plan with campaigns', async () => {
    expect((await t.request(agentToken, 'GET', '/campaign-settings')).statusCode).toBe(403);
    const refused = await t.request(noPlanToken, 'POST', '/campaign-settings', { settings: { messageInterval: 5 } });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', feature: 'useCampaigns' });
  });
});
