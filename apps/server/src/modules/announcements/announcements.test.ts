import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { multipart } from '../../test/multipart.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

let t: TestContext;
let superToken: string;
let adminToken: string;
let userToken: string;

beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  const company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  userToken = (await (await t.factories.buildUser(company.id)).login()).token;
});
afterAll(() => t.close());

const upload = (token: string, id: number, name: string, type: string, data = PNG) => {
  const body = multipart(name, type, data);
  return t.app.inject({ method: 'POST', url: `/announcements/${id}/media-upload`, headers: { ...body.headers, authorization: `Bearer ${token}` }, payload: body.payload });
};

describe('announcements', () => {
  it('a super user publishes one: priority 3 and active by default; title and text required', async () => {
    const response = await t.request(superToken, 'POST', '/announcements', { title: 'Manutenção', text: 'Domingo às 22h' });
    expect(response.statusCode).toBe(201);
    expect(response.json()).toEqual({
      id: expect.any(Number),
      title: 'Manutenção',
      text: 'Domingo às 22h',
      priority: 3,
      status: true,
      mediaPath: null,
      mediaName: null,
      mediaUrl: null,
      createdAt: expect.any(String),
      updatedAt: expect.any(String),
    });
    const missing = await t.request(superToken, 'POST', '/announcements', { title: '', priority: 9 });
    expect(missing.statusCode).toBe(400);
    expect(Object.keys(missing.json().fields).sort()).toEqual(['priority', 'text', 'title']);
    expect((await t.request(superToken, 'POST', '/announcements', { title: 'Urgente', text: 'x', priority: '1', status: 'false' })).json()).toMatchObject({ priority: 1, status: false });
  });

  it('refuses every write by users who are not super users, before reading the body', async () => {
    const announcement = (await t.request(superToken, 'POST', '/announcements', { title: 'Só super', text: 'texto' })).json();
    for (const token of [adminToken, userToken]) {
      const calls = [
        await t.request(token, 'POST', '/announcements', { title: 'Eu também', text: 'x' }),
        await t.request(token, 'POST', '/announcements', { nonsense: true }),
        await t.request(token, 'PUT', `/announcements/${announcement.id}`, { title: 'Mudei' }),
        await t.request(token, 'DELETE', `/announcements/${announcement.id}`),
        await upload(token, announcement.id, 'a.png', 'image/png'),
        await t.request(token, 'DELETE', `/announcements/${announcement.id}/media-upload`),
      ];
      for (const response of calls) {
        expect(response.statusCode).toBe(403);
        expect(response.json().error).toBe('ERR_NO_PERMISSION');
      }
    }
    expect((await t.request(userToken, 'GET', `/announcements/${announcement.id}`)).json().title).toBe('Só super');
  });

  it('every user lists the active ones newest first; super users also the inactive ones', async () => {
    const active = (await t.request(superToken, 'POST', '/announcements', { title: 'Ativo zeta', text: 'a' })).json();
    const inactive = (await t.request(superToken, 'POST', '/announcements', { title: 'Inativo zeta', text: 'b', status: false })).json();
    const titles = async (token: string, query = '') => (await t.request(token, 'GET', `/announcements?searchParam=zeta${query}`)).json().records.map((a: { title: string }) => a.title);
    expect(await titles(userToken)).toEqual(['Ativo zeta']);
    expect(await titles(superToken)).toEqual(['Inativo zeta', 'Ativo zeta']);
    expect(await titles(superToken, '&active=true')).toEqual(['Ativo zeta']);
    expect((await t.request(userToken, 'GET', `/announcements/${inactive.id}`)).statusCode).toBe(404);
    expect((await t.request(userToken, 'GET', `/announcements/${active.id}`)).statusCode).toBe(200);
    expect((await t.request(superToken, 'PUT', `/announcements/${inactive.id}`, { status: true, priority: 2 })).json()).toMatchObject({ status: true, priority: 2, title: 'Inativo zeta' });
    expect(await titles(userToken)).toEqual(['Inativo zeta', 'Ativo zeta']);
    expect((await t.request(superToken, 'DELETE', `/announcements/${active.id}`)).statusCode).toBe(200);
    expect((await t.request(superToken, 'DELETE', `/announcements/${active.id}`)).statusCode).toBe(404);
  });

  it('counts the unread ones per user until the popover is opened', async () => {
    const fresh = await t.factories.buildCompany();
    const token = (await fresh.admin.login()).token;
    const before = (await t.request(token, 'GET', '/announcements/unread')).json().count;
    expect(before).toBeGreaterThan(0);
    expect((await t.request(token, 'POST', '/announcements/read')).json()).toEqual({ count: 0 });
    expect((await t.request(token, 'GET', '/announcements/unread')).json()).toEqual({ count: 0 });
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.request(superToken, 'POST', '/announcements', { title: 'Nova', text: 'novidade' });
    await t.request(superToken, 'POST', '/announcements', { title: 'Nova inativa', text: 'x', status: false });
    expect((await t.request(token, 'GET', '/announcements/unread')).json()).toEqual({ count: 1 });
    // Another user's count is its own.
    expect((await t.request(userToken, 'GET', '/announcements/unread')).json().count).toBeGreaterThan(1);
  });

  it('takes a png, jpg or jpeg image, served by a signed URL only, and removes it', async () => {
    const announcement = (await t.request(superToken, 'POST', '/announcements', { title: 'Com imagem', text: 'veja' })).json();
    const gif = await upload(superToken, announcement.id, 'anim.gif', 'image/gif');
    expect(gif.statusCode).toBe(400);
    expect(gif.json().error).toBe('ERR_INVALID_FILE_TYPE');
    const uploaded = await upload(superToken, announcement.id, 'Aviso importante.png', 'image/png');
    expect(uploaded.statusCode).toBe(200);
    const body = uploaded.json();
    expect(body).toMatchObject({ mediaName: 'Aviso_importante.png', mediaPath: 'Aviso_importante.png' });
    expect(body.mediaUrl).toMatch(/^\/media\/\d+\/.+\?expires=\d+&signature=/);
    const file = await t.app.inject({ method: 'GET', url: body.mediaUrl });
    expect(file.statusCode).toBe(200);
    expect(Buffer.from(file.rawPayload).equals(PNG)).toBe(true);
    const unsigned = await t.app.inject({ method: 'GET', url: body.mediaUrl.split('?')[0] });
    expect(unsigned.statusCode).toBeGreaterThanOrEqual(400);
    // Another company's user sees it through the list's signed URL.
    const seen = (await t.request(userToken, 'GET', `/announcements/${announcement.id}`)).json();
    expect((await t.app.inject({ method: 'GET', url: seen.mediaUrl })).statusCode).toBe(200);

    const removed = await t.request(superToken, 'DELETE', `/announcements/${announcement.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaPath: null, mediaName: null, mediaUrl: null });
    expect((await t.app.inject({ method: 'GET', url: body.mediaUrl })).statusCode).toBe(404);
  });
});
