import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;
let company: BuiltCompany;
let adminToken: string;
let owner: BuiltUser;
let ownerToken: string;
let colleague: BuiltUser;
let colleagueToken: string;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  owner = await t.factories.buildUser(company.id);
  ownerToken = (await owner.login()).token;
  colleague = await t.factories.buildUser(company.id);
  colleagueToken = (await colleague.login()).token;
});
afterAll(() => t.close());

const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

function multipart(file: { field: string; name: string; type: string; content: string }, fields: Record<string, string> = {}) {
  const boundary = '----atende-qm-boundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(`--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`);
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const upload = (token: string, id: number, file: Parameters<typeof multipart>[0], fields?: Record<string, string>) => {
  const body = multipart(file, fields);
  return t.app.inject({ method: 'POST', url: `/quick-messages/${id}/media-upload`, headers: { ...body.headers, authorization: `Bearer ${token}` }, payload: body.payload });
};

describe('quick messages', () => {
  it('creates one owned by the caller, whatever userId the body names', async () => {
    const response = await t.request(ownerToken, 'POST', '/quick-messages', { shortcode: 'ola', message: 'Olá, tudo bem?', userId: colleague.id, companyId: 999 });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      shortcode: 'ola',
      message: 'Olá, tudo bem?',
      geral: false,
      status: true,
      editBeforeSend: false,
      userId: owner.id,
      isMedia: false,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
    });
    const missing = await t.request(ownerToken, 'POST', '/quick-messages', { message: 'sem atalho' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().fields.shortcode).toEqual(['Required']);
  });

  it("an admin's new quick message is for the whole team unless it says otherwise; an agent's is their own", async () => {
    const team = await t.factories.buildCompany();
    const [admin, agent, other] = [(await team.admin.login()).token, (await (await t.factories.buildUser(team.id)).login()).token, (await (await t.factories.buildUser(team.id)).login()).token];
    const byAdmin = await t.request(admin, 'POST', '/quick-messages', { shortcode: 'boasvindas', message: 'Bem-vindo!' });
    expect(byAdmin.json()).toMatchObject({ geral: true });
    const privateByAdmin = await t.request(admin, 'POST', '/quick-messages', { shortcode: 'rascunho', message: 'Só meu', geral: false });
    expect(privateByAdmin.json()).toMatchObject({ geral: false });
    const byAgent = await t.request(agent, 'POST', '/quick-messages', { shortcode: 'minha', message: 'Minha resposta' });
    expect(byAgent.json()).toMatchObject({ geral: false });
    // What the composer offers another agent: the admin's shared one, not the private ones.
    const offered = (await t.request(other, 'GET', '/quick-messages/list')).json().map((q: { shortcode: string }) => q.shortcode);
    expect(offered).toContain('boasvindas');
    expect(offered).not.toContain('rascunho');
    expect(offered).not.toContain('minha');
  });

  it('others see a geral one but may not edit or delete it; a private one is the owner’s and the admins’', async () => {
    const shared = await sd.buildQuickMessage(company.id, owner.id, { shortcode: 'shared', geral: true });
    const personal = await sd.buildQuickMessage(company.id, owner.id, { shortcode: 'personal' });

    expect((await t.request(colleagueToken, 'GET', `/quick-messages/${shared.id}`)).statusCode).toBe(200);
    for (const [method, body] of [['PUT', { message: 'mudado' }], ['DELETE', undefined]] as const) {
      const response = await t.request(colleagueToken, method, `/quick-messages/${shared.id}`, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('ERR_NO_PERMISSION');
    }
    expect((await t.request(colleagueToken, 'GET', `/quick-messages/${personal.id}`)).statusCode).toBe(403);
    expect((await t.request(colleagueToken, 'DELETE', `/quick-messages/${personal.id}/media-upload`)).statusCode).toBe(403);

    expect((await t.request(adminToken, 'PUT', `/quick-messages/${personal.id}`, { message: 'pelo admin' })).json()).toMatchObject({ message: 'pelo admin', shortcode: 'personal' });
    expect((await t.request(ownerToken, 'PUT', `/quick-messages/${personal.id}`, { shortcode: 'pessoal', status: false })).json()).toMatchObject({
      shortcode: 'pessoal',
      message: 'pelo admin',
      status: false,
    });
    expect((await t.request(ownerToken, 'DELETE', `/quick-messages/${personal.id}`)).statusCode).toBe(200);
    expect((await t.request(ownerToken, 'GET', `/quick-messages/${personal.id}`)).statusCode).toBe(404);
  });

  it('GET /quick-messages/list offers the caller its own and the geral ones, active only, by shortcode', async () => {
    const own = await t.factories.buildCompany();
    const me = await t.factories.buildUser(own.id);
    const other = await t.factories.buildUser(own.id);
    const token = (await me.login()).token;
    await sd.buildQuickMessage(own.id, me.id, { shortcode: 'b-mine' });
    await sd.buildQuickMessage(own.id, other.id, { shortcode: 'a-general', geral: true });
    await sd.buildQuickMessage(own.id, other.id, { shortcode: 'c-theirs' });
    await sd.buildQuickMessage(own.id, me.id, { shortcode: 'd-inactive', status: false });
    await sd.buildQuickMessage(own.id, other.id, { shortcode: 'e-general-inactive', geral: true, status: false });
    const list = (await t.request(token, 'GET', `/quick-messages/list?companyId=${own.id}&userId=${other.id}`)).json();
    expect(list.map((q: { shortcode: string }) => q.shortcode)).toEqual(['a-general', 'b-mine']);
    // Admins too get only what they may use in the composer (not colleagues' private ones).
    const adminList = (await t.request((await own.admin.login()).token, 'GET', '/quick-messages/list')).json();
    expect(adminList.map((q: { shortcode: string }) => q.shortcode)).toEqual(['a-general']);
  });

  it('GET /quick-messages pages and searches shortcode and message within what the caller may see', async () => {
    const own = await t.factories.buildCompany();
    const me = await t.factories.buildUser(own.id);
    const other = await t.factories.buildUser(own.id);
    const token = (await me.login()).token;
    for (let i = 0; i < 21; i += 1) await sd.buildQuickMessage(own.id, me.id, { shortcode: `atalho${String(i).padStart(2, '0')}` });
    await sd.buildQuickMessage(own.id, other.id, { shortcode: 'boleto', message: 'Segue a 2ª via do BOLETO', geral: true });
    await sd.buildQuickMessage(own.id, other.id, { shortcode: 'privado', message: 'boleto privado' });
    const first = (await t.request(token, 'GET', '/quick-messages?searchParam=ATALHO')).json();
    expect(first.records).toHaveLength(20);
    expect(first.hasMore).toBe(true);
    expect((await t.request(token, 'GET', '/quick-messages?searchParam=atalho&pageNumber=2')).json()).toMatchObject({ hasMore: false, records: [{ shortcode: 'atalho20' }] });
    const byMessage = (await t.request(token, 'GET', '/quick-messages?searchParam=boleto')).json();
    expect(byMessage.records.map((q: { shortcode: string }) => q.shortcode)).toEqual(['boleto']);
    const asAdmin = (await t.request((await own.admin.login()).token, 'GET', '/quick-messages?searchParam=boleto')).json();
    expect(asAdmin.records.map((q: { shortcode: string }) => q.shortcode)).toEqual(['boleto', 'privado']);
  });

  it('attaches a file (spaces in its name become underscores) and removes it', async () => {
    const quickMessage = await sd.buildQuickMessage(company.id, owner.id, { shortcode: 'catalogo' });
    const response = await upload(ownerToken, quickMessage.id, { field: 'file', name: 'Tabela de preços 2025.pdf', type: 'application/pdf', content: '%PDF-1.4 test' }, { typeArch: 'quickMessage' });
    expect(response.statusCode).toBe(200);
    const body = response.json();
    expect(body).toMatchObject({ isMedia: true, mediaName: 'Tabela_de_preços_2025.pdf', mediaPath: 'Tabela_de_preços_2025.pdf' });
    expect(body.mediaUrl).toMatch(/^\/media\/.+\?expires=\d+&signature=/);
    const file = await t.app.inject({ method: 'GET', url: body.mediaUrl });
    expect(file.statusCode).toBe(200);
    expect(file.body).toBe('%PDF-1.4 test');

    const removed = await t.request(ownerToken, 'DELETE', `/quick-messages/${quickMessage.id}/media-upload`);
    expect(removed.json()).toMatchObject({ isMedia: false, mediaPath: null, mediaName: null, mediaUrl: null });
  });

  it('refuses uploads storage refuses, and a colleague’s upload to a geral one', async () => {
    const quickMessage = await sd.buildQuickMessage(company.id, owner.id, { geral: true });
    const script = await upload(ownerToken, quickMessage.id, { field: 'file', name: 'x.html', type: 'text/html', content: '<script>' });
    expect(script.statusCode).toBe(400);
    const wrongField = await upload(ownerToken, quickMessage.id, { field: 'medias', name: 'a.png', type: 'image/png', content: 'png' });
    expect(wrongField.statusCode).toBe(400);
    const colleagues = await upload(colleagueToken, quickMessage.id, { field: 'file', name: 'a.png', type: 'image/png', content: 'png' });
    expect(colleagues.statusCode).toBe(403);
    expect((await t.request(ownerToken, 'GET', `/quick-messages/${quickMessage.id}`)).json().isMedia).toBe(false);
  });

  it('announces a private one only to its owner and the admins, a geral one to the company', async () => {
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    try {
      const created = (await t.request(ownerToken, 'POST', '/quick-messages', { shortcode: 'anuncio', geral: true })).json();
      await t.request(ownerToken, 'PUT', `/quick-messages/${created.id}`, { geral: false });
      await t.request(ownerToken, 'DELETE', `/quick-messages/${created.id}`);
      await settle();
      const events = spy.mock.calls.filter(([, , entity]) => entity === 'quickMessage').map(([, rooms, , payload]) => ({ rooms, payload }));
      const companyRoom = `company:${company.id}`;
      const privateRooms = [`company:${company.id}:admins`, `company:${company.id}:user:${owner.id}`];
      expect(events).toEqual([
        { rooms: [companyRoom], payload: { action: 'create', quickMessage: expect.objectContaining({ id: created.id, geral: true }) } },
        { rooms: [companyRoom], payload: { action: 'delete', quickMessageId: created.id } },
        { rooms: privateRooms, payload: { action: 'update', quickMessage: expect.objectContaining({ id: created.id, geral: false }) } },
        { rooms: privateRooms, payload: { action: 'delete', quickMessageId: created.id } },
      ]);
    } finally {
      spy.mockRestore();
    }
  });
});
