import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chatMessages } from '../../platform/db/schema.js';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let owner: BuiltUser;
let member: BuiltUser;
let outsider: BuiltUser;
let ownerToken: string;
let memberToken: string;
let outsiderToken: string;
let otherCompany: BuiltCompany;
let otherToken: string;

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  owner = await t.factories.buildUser(company.id, { name: 'Ana Dona' });
  member = await t.factories.buildUser(company.id, { name: 'Bruno Membro' });
  outsider = await t.factories.buildUser(company.id, { name: 'Carla Fora' });
  ownerToken = (await owner.login()).token;
  memberToken = (await member.login()).token;
  outsiderToken = (await outsider.login()).token;
  otherCompany = await t.factories.buildCompany();
  otherToken = (await otherCompany.admin.login()).token;
});
afterAll(() => t.close());

async function createChat(title = 'Equipe', users: unknown[] = [{ id: member.id, name: 'Bruno' }]) {
  const response = await t.request(ownerToken, 'POST', '/chats', { title, users });
  expect(response.statusCode).toBe(201);
  return response.json<{ id: number; uuid: string }>();
}

describe('internal chat', () => {
  it('creates a chat owned by the caller, with the chosen users of the company as members', async () => {
    const response = await t.request(ownerToken, 'POST', '/chats', { title: 'Plantão', users: [{ id: member.id, name: 'Bruno' }], ownerId: outsider.id, companyId: otherCompany.id });
    expect(response.statusCode).toBe(201);
    const chat = response.json();
    expect(chat).toMatchObject({ id: expect.any(Number), uuid: expect.stringMatching(/^[0-9a-f-]{36}$/), title: 'Plantão', ownerId: owner.id, lastMessage: '' });
    expect(chat.users.map((u: { userId: number }) => u.userId).sort()).toEqual([owner.id, member.id].sort());
    expect(chat.users[0]).toEqual({ userId: expect.any(Number), unreads: 0, user: { id: expect.any(Number), name: expect.any(String) } });
    // Bare ids work as well.
    expect((await t.request(ownerToken, 'POST', '/chats', { title: 'Ids', users: [member.id] })).statusCode).toBe(201);
  });

  it('refuses a chat without a title, without another user, or with a user of another company (404)', async () => {
    const noTitle = await t.request(ownerToken, 'POST', '/chats', { title: '  ', users: [member.id] });
    expect(noTitle.statusCode).toBe(400);
    expect(noTitle.json().fields.title).toContain('Required');
    const noUsers = await t.request(ownerToken, 'POST', '/chats', { title: 'Sozinho', users: [] });
    expect(noUsers.statusCode).toBe(400);
    expect(noUsers.json().fields.users).toEqual(['Required']);
    const onlySelf = await t.request(ownerToken, 'POST', '/chats', { title: 'Sozinho', users: [owner.id] });
    expect(onlySelf.statusCode).toBe(400);
    const foreign = await t.request(ownerToken, 'POST', '/chats', { title: 'Vazando', users: [member.id, otherCompany.admin.id] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toBe('ERR_NO_USER_FOUND');
  });

  it('lists only the caller’s chats; a non-member can neither read nor write one', async () => {
    const chat = await createChat('Só nós');
    const titles = async (token: string) => (await t.request(token, 'GET', '/chats')).json().records.map((c: { title: string }) => c.title);
    expect(await titles(ownerToken)).toContain('Só nós');
    expect(await titles(memberToken)).toContain('Só nós');
    expect(await titles(outsiderToken)).not.toContain('Só nós');
    expect((await t.request(memberToken, 'GET', `/chats/${chat.uuid}`)).json().id).toBe(chat.id);

    const refusals = [
      await t.request(outsiderToken, 'GET', `/chats/${chat.uuid}`),
      await t.request(outsiderToken, 'GET', `/chats/${chat.id}/messages`),
      await t.request(outsiderToken, 'POST', `/chats/${chat.id}/messages`, { message: 'posso entrar?' }),
      await t.request(outsiderToken, 'POST', `/chats/${chat.id}/read`, { userId: outsider.id }),
      await t.request(outsiderToken, 'PUT', `/chats/${chat.id}`, { title: 'Meu agora' }),
      await t.request(outsiderToken, 'DELETE', `/chats/${chat.id}`),
      await t.request(outsiderToken, 'POST', `/chats/${chat.id}/leave`),
    ];
    for (const response of refusals) {
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('ERR_NOT_CHAT_MEMBER');
    }
    expect(await t.database.db.select().from(chatMessages).where(eq(chatMessages.chatId, chat.id))).toEqual([]);
  });

  it('answers 404 to another company’s chat on every route, by id and by uuid', async () => {
    const chat = await createChat('Interno');
    const calls = [
      await t.request(otherToken, 'GET', `/chats/${chat.id}`),
      await t.request(otherToken, 'GET', `/chats/${chat.uuid}`),
      await t.request(otherToken, 'PUT', `/chats/${chat.id}`, { title: 'x' }),
      await t.request(otherToken, 'DELETE', `/chats/${chat.id}`),
      await t.request(otherToken, 'POST', `/chats/${chat.id}/leave`),
      await t.request(otherToken, 'POST', `/chats/${chat.id}/read`),
      await t.request(otherToken, 'GET', `/chats/${chat.id}/messages`),
      await t.request(otherToken, 'POST', `/chats/${chat.id}/messages`, { message: 'oi' }),
    ];
    for (const response of calls) {
      expect(response.statusCode, response.body).toBe(404);
      expect(response.json().error).toBe('ERR_NO_CHAT_FOUND');
    }
  });

  it('sends non-blank messages, counts them unread for the others until read, and pages them newest page first', async () => {
    const chat = await createChat('Conversa');
    for (const blank of ['', '   ', '\n\t ']) {
      const response = await t.request(memberToken, 'POST', `/chats/${chat.id}/messages`, { message: blank });
      expect(response.statusCode).toBe(400);
      expect(response.json().fields.message).toEqual(['Required']);
    }
    expect((await t.request(memberToken, 'POST', `/chats/${chat.id}/messages`, {})).statusCode).toBe(400);

    const sent = await t.request(memberToken, 'POST', `/chats/${chat.id}/messages`, { message: 'Oi @Ana Dona\nsegunda linha' });
    expect(sent.statusCode).toBe(201);
    expect(sent.json()).toEqual({
      id: expect.any(Number),
      chatId: chat.id,
      message: 'Oi @Ana Dona\nsegunda linha',
      senderId: member.id,
      sender: { id: member.id, name: 'Bruno Membro' },
      createdAt: expect.any(String),
    });
    const unreadOf = (c: { users: { userId: number; unreads: number }[] }, userId: number) => c.users.find((u) => u.userId === userId)?.unreads;
    const seen = (await t.request(ownerToken, 'GET', `/chats/${chat.id}`)).json();
    expect(seen.lastMessage).toBe('Oi @Ana Dona\nsegunda linha');
    expect(unreadOf(seen, owner.id)).toBe(1);
    expect(unreadOf(seen, member.id)).toBe(0);
    expect((await t.request(ownerToken, 'GET', '/chats/unread')).json().count).toBeGreaterThanOrEqual(1);
    const read = (await t.request(ownerToken, 'POST', `/chats/${chat.id}/read`, { userId: member.id })).json();
    expect(unreadOf(read, owner.id)).toBe(0);

    for (let i = 1; i <= 24; i += 1) await t.request(ownerToken, 'POST', `/chats/${chat.id}/messages`, { message: `m${i}` });
    const first = (await t.request(memberToken, 'GET', `/chats/${chat.id}/messages`)).json();
    expect(first.hasMore).toBe(true);
    expect(first.records.map((m: { message: string }) => m.message)).toEqual(Array.from({ length: 20 }, (_, i) => `m${i + 5}`));
    const second = (await t.request(memberToken, 'GET', `/chats/${chat.id}/messages?pageNumber=2`)).json();
    expect(second.hasMore).toBe(false);
    expect(second.records.map((m: { message: string }) => m.message)).toEqual(['Oi @Ana Dona\nsegunda linha', 'm1', 'm2', 'm3', 'm4']);
    expect(unreadOf((await t.request(memberToken, 'GET', `/chats/${chat.id}`)).json(), member.id)).toBe(24);
  });

  it('lets only the owner edit and delete; a removed member loses access at once; members leave', async () => {
    const chat = await createChat('Projeto', [member.id, outsider.id]);
    for (const [method, body] of [['PUT', { title: 'Tomado' }], ['DELETE', undefined]] as const) {
      const response = await t.request(memberToken, method, `/chats/${chat.id}`, body);
      expect(response.statusCode).toBe(403);
      expect(response.json().error).toBe('ERR_NOT_CHAT_OWNER');
    }
    const edited = (await t.request(ownerToken, 'PUT', `/chats/${chat.id}`, { title: 'Projeto X', users: [{ id: outsider.id }] })).json();
    expect(edited.title).toBe('Projeto X');
    expect(edited.users.map((u: { userId: number }) => u.userId).sort()).toEqual([owner.id, outsider.id].sort());
    expect((await t.request(memberToken, 'GET', `/chats/${chat.id}/messages`)).statusCode).toBe(403);
    expect((await t.request(memberToken, 'POST', `/chats/${chat.id}/messages`, { message: 'ainda estou?' })).statusCode).toBe(403);

    const ownerLeaves = await t.request(ownerToken, 'POST', `/chats/${chat.id}/leave`);
    expect(ownerLeaves.statusCode).toBe(409);
    expect(ownerLeaves.json().error).toBe('ERR_CHAT_OWNER_CANNOT_LEAVE');
    expect((await t.request(outsiderToken, 'POST', `/chats/${chat.id}/leave`)).statusCode).toBe(200);
    expect((await t.request(outsiderToken, 'GET', `/chats/${chat.id}`)).statusCode).toBe(403);

    expect((await t.request(ownerToken, 'DELETE', `/chats/${chat.id}`)).statusCode).toBe(200);
    expect((await t.request(ownerToken, 'GET', `/chats/${chat.id}`)).statusCode).toBe(404);
  });

  it('is refused on every route when the plan does not allow internal chat', async () => {
    const noChat = await t.factories.buildCompany({ plan: { useInternalChat: false } });
    const token = (await noChat.admin.login()).token;
    const colleague = await t.factories.buildUser(noChat.id);
    for (const [method, url, body] of [
      ['GET', '/chats', undefined],
      ['GET', '/chats/unread', undefined],
      ['POST', '/chats', { title: 'Sem plano', users: [colleague.id] }],
      ['GET', '/chats/1', undefined],
      ['PUT', '/chats/1', { title: 'x' }],
      ['DELETE', '/chats/1', undefined],
      ['POST', '/chats/1/read', undefined],
      ['GET', '/chats/1/messages', undefined],
      ['POST', '/chats/1/messages', { message: 'oi' }],
    ] as const) {
      const response = await t.request(token, method, url, body);
      expect(response.statusCode, `${method} ${url}`).toBe(403);
      expect(response.json()).toMatchObject({ error: 'ERR_PLAN_FEATURE_DISABLED', feature: 'useInternalChat' });
    }
  });
});
