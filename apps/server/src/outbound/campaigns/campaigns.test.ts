import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contactListItems, contactLists, outboundSends, sandboxOutbox } from '../../platform/db/schema.js';
import { createChannelTestContext, waitUntil, type ChannelTestContext } from '../../test/channel-test-app.js';
import { multipart } from '../../test/multipart.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';

/*
 * Campaigns (spec part 2 §2.7, §4, §5, §7) on the outbound engine with a real job
 * runner: a due campaign starts, sends one message per contact of its list with
 * the placeholders filled, reports sent/delivered/failed with reasons and ends
 * FINALIZADA; states, editable window, tenants and the plan flag are enforced.
 */

let t: ChannelTestContext;
let companyId: number;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let noPlanToken: string;
let whatsappId: number;

beforeAll(async () => {
  t = await createChannelTestContext({ jobs: true, env: { OUTBOUND_SWEEP_SECONDS: '1' } });
  const sd = createServiceDeskFactories(t.database.db);
  const company = await t.factories.buildCompany();
  companyId = company.id;
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(companyId, { profile: 'user' })).login()).token;
  whatsappId = (await sd.buildConnection(companyId, { name: 'Sandbox' })).id;
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
  noPlanToken = (await (await t.factories.buildCompany({ plan: { useCampaigns: false } })).admin.login()).token;
  // Pacing off: the sends go as fast as the sandbox takes them.
  const settings = await t.request(adminToken, 'POST', '/campaign-settings', {
    settings: { messageInterval: 0, longerIntervalAfter: 0, greaterInterval: 0, variables: [{ key: 'loja', value: 'Loja Centro' }] },
  });
  expect(settings.statusCode).toBe(200);
}, 60_000);
afterAll(async () => {
  await t?.close();
});

async function buildList(people: { name: string; number: string; email?: string }[]) {
  const [list] = await t.database.db.insert(contactLists).values({ companyId, name: `Lista ${Date.now()}` }).returning();
  await t.database.db.insert(contactListItems).values(people.map((p) => ({ companyId, contactListId: list!.id, email: '', ...p })));
  return list!.id;
}

const report = async (id: number) => (await t.request(adminToken, 'GET', `/campaigns/${id}`)).json();

describe('campaigns', () => {
  it('a due campaign sends each contact one message with the placeholders filled, then ends FINALIZADA with an honest report', async () => {
    const hook = await createServiceDeskFactories(t.database.db).buildWebhook(companyId, ['campaign.finished']);
    const contactListId = await buildList([
      { name: 'Ana Souza', number: '5511987650001', email: 'ana@example.com' },
      { name: 'Bruno Lima', number: '5511987650002' },
      { name: 'Sem WhatsApp', number: '9991987650003' },
    ]);
    const created = await t.request(adminToken, 'POST', '/campaigns', {
      name: 'Black Friday',
      message1: 'Olá {nome}, ofertas na {loja}! ({email})',
      message2: 'Oi {{primeiroNome}}, seu número {{number}} ganhou desconto na {{ loja }}.',
      whatsappId,
      contactListId,
      tagListId: false,
      scheduledAt: new Date(Date.now() - 1000).toISOString(),
      confirmation: 0,
    });
    expect(created.statusCode).toBe(201);
    const campaign = created.json();
    expect(campaign).toMatchObject({ status: 'PROGRAMADA', whatsapp: { id: whatsappId }, contactList: { id: contactListId } });

    const finished = await waitUntil(async () => {
      const now = await report(campaign.id);
      return now.status === 'FINALIZADA' ? now : null;
    }, 20_000);
    expect(finished.progress).toEqual({ valid: 3, queued: 0, sent: 2, delivered: 2, failed: 1, cancelled: 0 });
    expect(finished.failures).toEqual([{ number: '9991987650003', reason: 'ERR_WAPP_INVALID_CONTACT' }]);
    expect(finished.completedAt).not.toBeNull();
    // The finish is a campaign.finished webhook event (issue 34), written with it, once.
    expect(await createServiceDeskFactories(t.database.db).webhookOutbox(hook.id)).toEqual([
      {
        event: 'campaign.finished',
        orderingKey: `campaign:${campaign.id}`,
        data: expect.objectContaining({ id: campaign.id, name: 'Black Friday', status: 'FINALIZADA', completedAt: finished.completedAt, mediaUrl: null }),
      },
    ]);
    const outbox = await t.database.db.select({ to: sandboxOutbox.number, body: sandboxOutbox.body }).from(sandboxOutbox).where(eq(sandboxOutbox.whatsappId, whatsappId));
    expect(outbox.sort((a, b) => a.to.localeCompare(b.to))).toEqual([
      { to: '5511987650001', body: 'Olá Ana Souza, ofertas na Loja Centro! (ana@example.com)' },
      { to: '5511987650002', body: 'Oi Bruno, seu número 5511987650002 ganhou desconto na Loja Centro.' },
    ]);
    // Nothing goes out with a variable left: each was filled for its contact when it was sent.
    expect(outbox.filter((message) => /[{}]/.test(message.body))).toEqual([]);
    const variants = await t.database.db.select({ details: outboundSends.details }).from(outboundSends).where(eq(outboundSends.sourceId, campaign.id));
    expect(variants.map((row) => (row.details as { variant: number }).variant).sort()).toEqual([1, 1, 2]);
  });

  it('takes an attachment (413 over 16 MB, replaced, removed) and sends it after the text', async () => {
    const contactListId = await buildList([{ name: 'Dora Maia', number: '5511987650020' }]);
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const campaign = (await t.request(adminToken, 'POST', '/campaigns', { name: 'Com anexo', message1: 'Veja o folheto, {nome}', whatsappId, contactListId, scheduledAt: inTwoHours })).json();
    const attach = (token: string, fileName: string, mimeType: string, data: Buffer) => {
      const body = multipart(fileName, mimeType, data);
      return t.app.inject({ method: 'POST', url: `/campaigns/${campaign.id}/media-upload`, headers: { authorization: `Bearer ${token}`, ...body.headers }, payload: body.payload });
    };
    const huge = await attach(adminToken, 'enorme.pdf', 'application/pdf', Buffer.alloc(16 * 1024 * 1024 + 1, 1));
    expect(huge.statusCode).toBe(413);
    expect((await report(campaign.id)).mediaName).toBeNull();
    expect((await attach(otherToken, 'a.pdf', 'application/pdf', Buffer.from('%PDF-1.4'))).statusCode).toBe(404);
    expect((await attach(adminToken, 'primeiro.pdf', 'application/pdf', Buffer.from('%PDF-1.4 one'))).json()).toMatchObject({ mediaName: 'primeiro.pdf' });
    const replaced = (await attach(adminToken, 'folheto.pdf', 'application/pdf', Buffer.from('%PDF-1.4 two'))).json();
    expect(replaced.mediaName).toBe('folheto.pdf');
    const download = await t.app.inject({ method: 'GET', url: new URL(replaced.mediaUrl, 'http://x').pathname + new URL(replaced.mediaUrl, 'http://x').search });
    expect(download.body).toBe('%PDF-1.4 two');
    const removed = await t.app.inject({ method: 'DELETE', url: `/campaigns/${campaign.id}/media-upload`, headers: { authorization: `Bearer ${adminToken}` } });
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
    await attach(adminToken, 'folheto.pdf', 'application/pdf', Buffer.from('%PDF-1.4 three'));

    expect((await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { scheduledAt: new Date(Date.now() - 1000).toISOString() })).statusCode).toBe(200);
    await waitUntil(async () => ((await report(campaign.id)).status === 'FINALIZADA' ? true : null), 20_000);
    const outbox = await t.database.db
      .select({ body: sandboxOutbox.body, mediaName: sandboxOutbox.mediaName })
      .from(sandboxOutbox)
      .where(eq(sandboxOutbox.number, '5511987650020'))
      .orderBy(sandboxOutbox.id);
    expect(outbox).toEqual([
      { body: 'Veja o folheto, Dora Maia', mediaName: null },
      { body: '', mediaName: 'folheto.pdf' },
    ]);
  });

  it('a scheduled campaign is editable until an hour before; cancelled it sends nothing; restarted it sends to everyone once', async () => {
    const contactListId = await buildList([{ name: 'Carla Dias', number: '5511987650010' }]);
    const inTwoHours = new Date(Date.now() + 2 * 3_600_000).toISOString();
    const campaign = (await t.request(adminToken, 'POST', '/campaigns', { name: 'Natal', message1: 'Feliz Natal, {nome}!', whatsappId, contactListId, scheduledAt: inTwoHours })).json();
    expect((await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { name: 'Natal 2026' })).json()).toMatchObject({ name: 'Natal 2026', status: 'PROGRAMADA' });
    const soon = await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { scheduledAt: new Date(Date.now() + 30 * 60_000).toISOString() });
    expect(soon.json()).toMatchObject({ status: 'PROGRAMADA' });
    const locked = await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { name: 'Tarde demais' });
    expect(locked.statusCode).toBe(409);
    expect(locked.json().error).toBe('ERR_CAMPAIGN_NOT_EDITABLE');

    expect((await t.request(adminToken, 'POST', `/campaigns/${campaign.id}/restart`)).statusCode).toBe(409);
    expect((await t.request(adminToken, 'POST', `/campaigns/${campaign.id}/cancel`)).json().status).toBe('CANCELADA');
    // Messages stay editable while cancelled; nothing else is.
    expect((await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { message1: 'Boas festas, {nome}!' })).statusCode).toBe(200);
    expect((await t.request(adminToken, 'PUT', `/campaigns/${campaign.id}`, { name: 'Outro' })).statusCode).toBe(409);
    expect((await report(campaign.id)).progress.valid).toBe(0);

    expect((await t.request(adminToken, 'POST', `/campaigns/${campaign.id}/restart`)).json().status).toBe('EM_ANDAMENTO');
    const done = await waitUntil(async () => {
      const now = await report(campaign.id);
      return now.status === 'FINALIZADA' ? now : null;
    }, 20_000);
    expect(done.progress).toMatchObject({ valid: 1, sent: 1 });
    const outbox = await t.database.db.select({ body: sandboxOutbox.body }).from(sandboxOutbox).where(eq(sandboxOutbox.number, '5511987650010'));
    expect(outbox).toEqual([{ body: 'Boas festas, Carla Dias!' }]);
  });

  it('a campaign scheduled a moment ahead is started by the engine sweep when its time comes', async () => {
    const contactListId = await buildList([{ name: 'Elis Rocha', number: '5511987650020' }]);
    const campaign = (await t.request(adminToken, 'POST', '/campaigns', { name: 'Daqui a pouco', message1: 'Oi {nome}', whatsappId, contactListId, scheduledAt: new Date(Date.now() + 2000).toISOString() })).json();
    expect(campaign.status).toBe('PROGRAMADA');
    const done = await waitUntil(async () => {
      const now = await report(campaign.id);
      return now.status === 'FINALIZADA' ? now : null;
    }, 20_000);
    expect(done.progress).toMatchObject({ valid: 1, sent: 1 });
  });

  it("refuses, on save, a message with a variable a campaign has not: a protocol (no ticket) or a key the settings do not define", async () => {
    const body = { name: 'Variáveis', message1: 'Olá {nome}, protocolo {protocolo}', message2: 'Oi {{firstName}} da {loja}', message3: 'Cupom {cupom} {{Loja}}' };
    const refused = await t.request(adminToken, 'POST', '/campaigns', body);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { message1: ['{protocolo}'], message3: ['{cupom}', '{{Loja}}'] } });
    const created = await t.request(adminToken, 'POST', '/campaigns', { ...body, message1: 'Olá {nome}', message3: '' });
    expect(created.statusCode).toBe(201);
    const edited = await t.request(adminToken, 'PUT', `/campaigns/${created.json().id}`, { message4: '{{saudação}} {{x}}' });
    expect(edited.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { message4: ['{{x}}'] } });
  });

  it('validates the name and refuses a scheduled campaign without connection, audience or message', async () => {
    const short = await t.request(adminToken, 'POST', '/campaigns', { name: 'X' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toHaveProperty('name');
    expect((await t.request(adminToken, 'POST', '/campaigns', { name: 'Rascunho' })).json().status).toBe('INATIVA');
    const incomplete = await t.request(adminToken, 'POST', '/campaigns', { name: 'Incompleta', scheduledAt: new Date(Date.now() + 7_200_000).toISOString() });
    expect(incomplete.statusCode).toBe(400);
    expect(incomplete.json().error).toBe('ERR_CAMPAIGN_INCOMPLETE');
    expect((await t.request(adminToken, 'POST', '/campaigns', { name: 'Data ruim', scheduledAt: '2026-02-30T10:00' })).statusCode).toBe(400);
  });

  it('agents, plans without campaigns and other companies are refused', async () => {
    const mine = (await t.request(adminToken, 'POST', '/campaigns', { name: 'Privada', message1: 'Oi' })).json();
    expect((await t.request(agentToken, 'GET', '/campaigns')).statusCode).toBe(403);
    expect((await t.request(noPlanToken, 'POST', '/campaigns', { name: 'Sem plano' })).statusCode).toBe(403);
    for (const [method, url, body] of [
      ['GET', `/campaigns/${mine.id}`, undefined],
      ['PUT', `/campaigns/${mine.id}`, { name: 'Alheia' }],
      ['DELETE', `/campaigns/${mine.id}`, undefined],
      ['POST', `/campaigns/${mine.id}/cancel`, undefined],
      ['POST', `/campaigns/${mine.id}/restart`, undefined],
    ] as const) {
      expect((await t.request(otherToken, method, url, body)).statusCode, `${method} ${url}`).toBe(404);
    }
    // Another company's connection or list cannot be named.
    expect((await t.request(otherToken, 'POST', '/campaigns', { name: 'Intrusa', whatsappId })).statusCode).toBe(404);
    expect((await t.request(adminToken, 'GET', `/campaigns/${mine.id}`)).json().name).toBe('Privada');
  });
});
