import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let superToken: string;
let adminToken: string;
let agentToken: string;
let otherAdminToken: string;
beforeAll(async () => {
  t = await createTestContext();
  superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
  adminToken = (await (await t.factories.buildUser(1, { profile: 'admin' })).login()).token;
  agentToken = (await (await t.factories.buildUser(1, { profile: 'user' })).login()).token;
  const other = await t.factories.buildCompany();
  otherAdminToken = (await other.admin.login()).token;
});
afterAll(() => t.close());

describe('help videos (spec part 2 §2.15, §2.16, §7)', () => {
  it('a super user creates, edits and deletes a help; every signed-in user of any company reads it', async () => {
    const created = await t.request(superToken, 'POST', '/helps', { title: '  Getting started ', video: 'dQw4w9WgXcQ', description: 'First steps', companyId: 99, id: 7 });
    expect(created.statusCode).toBe(201);
    const help = created.json();
    expect(help).toMatchObject({ title: 'Getting started', video: 'dQw4w9WgXcQ', description: 'First steps' });
    expect(help.id).not.toBe(7);
    expect(Object.keys(help).sort()).toEqual(['createdAt', 'description', 'id', 'title', 'updatedAt', 'video']);

    for (const token of [agentToken, adminToken, otherAdminToken, superToken]) {
      for (const url of ['/helps', '/helps/list']) {
        const response = await t.request(token, 'GET', url);
        expect(response.statusCode, url).toBe(200);
        expect(response.json()).toContainEqual(expect.objectContaining({ id: help.id, title: 'Getting started', video: 'dQw4w9WgXcQ' }));
      }
    }

    const edited = await t.request(superToken, 'PUT', `/helps/${help.id}`, { description: 'Updated' });
    expect(edited.statusCode).toBe(200);
    expect(edited.json()).toMatchObject({ id: help.id, title: 'Getting started', video: 'dQw4w9WgXcQ', description: 'Updated' });
    // A field left out of an edit keeps its value (no default fills it in).
    const renamed = await t.request(superToken, 'PUT', `/helps/${help.id}`, { title: 'Renamed' });
    expect(renamed.json()).toMatchObject({ title: 'Renamed', video: 'dQw4w9WgXcQ', description: 'Updated' });

    const deleted = await t.request(superToken, 'DELETE', `/helps/${help.id}`);
    expect(deleted.statusCode).toBe(200);
    expect((await t.request(agentToken, 'GET', '/helps')).json().map((h: { id: number }) => h.id)).not.toContain(help.id);
    expect((await t.request(superToken, 'DELETE', `/helps/${help.id}`)).json().error).toBe('ERR_NO_HELP_FOUND');
    const missing = await t.request(superToken, 'PUT', `/helps/${help.id}`, { title: 'Gone' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error).toBe('ERR_NO_HELP_FOUND');
  });

  it('refuses writes by admins and agents of any company (403) and changes nothing', async () => {
    const help = (await t.request(superToken, 'POST', '/helps', { title: 'Kept', video: 'abcDEF_-123' })).json();
    for (const token of [agentToken, adminToken, otherAdminToken]) {
      for (const [method, url, body] of [
        ['POST', '/helps', { title: 'Sneaky', video: 'abc' }],
        ['PUT', `/helps/${help.id}`, { title: 'Sneaky' }],
        ['DELETE', `/helps/${help.id}`, undefined],
      ] as const) {
        const response = await t.request(token, method, url, body);
        expect(response.statusCode, `${method} ${url}`).toBe(403);
        expect(response.json().error).toBe('ERR_NO_PERMISSION');
      }
    }
    const list = (await t.request(superToken, 'GET', '/helps')).json() as { title: string; id: number }[];
    expect(list.find((h) => h.id === help.id)?.title).toBe('Kept');
    expect(list.some((h) => h.title === 'Sneaky')).toBe(false);
  });

  it('validates title and video code: required, and the code only as a video id (it goes into an embed URL)', async () => {
    const noTitle = await t.request(superToken, 'POST', '/helps', { title: '  ', video: 'abc' });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fields.title).toBeDefined();
    const noVideo = await t.request(superToken, 'POST', '/helps', { title: 'A title' });
    expect(noVideo.statusCode).toBe(400);
    expect(noVideo.json().fields.video).toBeDefined();
    for (const video of ['abc"onload="x', 'https://evil.example/x', '../../x', 'a b', 'x'.repeat(65)]) {
      const response = await t.request(superToken, 'POST', '/helps', { title: 'Bad code', video });
      expect(response.statusCode, video).toBe(400);
      expect(response.json().fields.video, video).toBeDefined();
    }
    // A pasted YouTube address is stored as its id.
    const pasted = await t.request(superToken, 'POST', '/helps', { title: 'Pasted', video: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=1s' });
    expect(pasted.statusCode).toBe(201);
    expect(pasted.json().video).toBe('dQw4w9WgXcQ');
    const badEdit = await t.request(superToken, 'PUT', '/helps/1', { video: '<script>' });
    expect(badEdit.statusCode).toBe(400);
    expect((await t.request(superToken, 'GET', '/helps')).json().some((h: { title: string }) => h.title === 'Bad code')).toBe(false);
  });
});
