import { ANNOUNCEMENT_EVENT } from '@atende/shared';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createTestContext, SUPER_ADMIN, type TestContext } from '../../test/test-app.js';

/**
 * Chat messages reach exactly the chat's members (their user rooms), never a
 * colleague outside the chat nor another company; announcements reach everyone.
 */
let t: TestContext;
let url: string;
const sockets: Socket[] = [];

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  const address = t.app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  url = `http://127.0.0.1:${address.port}`;
});
afterAll(async () => {
  for (const socket of sockets) socket.close();
  await t.close();
});

/** Connected and in its rooms (the server says `ready` once they are joined). */
async function connect(user: { login(): Promise<{ token: string }> }): Promise<Socket> {
  const { token } = await user.login();
  const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
  sockets.push(socket);
  await new Promise<void>((resolve, reject) => {
    socket.once('ready', () => resolve());
    socket.once('connect_error', reject);
  });
  return socket;
}

/** Every event a socket receives, by name. */
function recorder(socket: Socket): { event: string; payload: { action?: string; [key: string]: unknown } }[] {
  const seen: { event: string; payload: { action?: string } }[] = [];
  socket.onAny((event: string, payload: { action?: string }) => seen.push({ event, payload }));
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('internal chat and announcements in realtime', () => {
  let company: BuiltCompany;
  let other: BuiltCompany;
  let owner: BuiltUser;
  let member: BuiltUser;
  let outsider: BuiltUser;

  beforeAll(async () => {
    company = await t.factories.buildCompany();
    other = await t.factories.buildCompany();
    owner = await t.factories.buildUser(company.id);
    member = await t.factories.buildUser(company.id);
    outsider = await t.factories.buildUser(company.id);
  });

  it('a chat message reaches exactly its members; a removed member hears the removal and nothing after', async () => {
    const ownerSocket = await connect(owner);
    const memberSocket = await connect(member);
    const outsiderSocket = await connect(outsider);
    // The company's admin (in the company and admins rooms) is not a member either.
    const adminSocket = await connect(company.admin);
    const otherSocket = await connect(other.admin);
    const seen = { owner: recorder(ownerSocket), member: recorder(memberSocket), outsider: recorder(outsiderSocket), admin: recorder(adminSocket), other: recorder(otherSocket) };
    const ownerToken = (await owner.login()).token;
    const memberToken = (await member.login()).token;

    const chat = (await t.request(ownerToken, 'POST', '/chats', { title: 'Tempo real', users: [member.id] })).json();
    const sent = await t.request(memberToken, 'POST', `/chats/${chat.id}/messages`, { message: 'chegou?' });
    expect(sent.statusCode).toBe(201);
    await settle();

    const chatEvent = `company-${company.id}-chat`;
    for (const who of ['owner', 'member'] as const) {
      const events = seen[who].filter((e) => e.event === chatEvent);
      expect(events.map((e) => e.payload.action)).toEqual(['update', 'new-message']);
      expect(events[1]!.payload).toMatchObject({ newMessage: { message: 'chegou?', senderId: member.id, chatId: chat.id }, chat: { id: chat.id, lastMessage: 'chegou?' } });
    }
    // The message was stored before anyone heard of it.
    expect((await t.request(ownerToken, 'GET', `/chats/${chat.id}/messages`)).json().records.map((m: { message: string }) => m.message)).toEqual(['chegou?']);
    for (const who of ['outsider', 'admin', 'other'] as const) {
      expect(seen[who].filter((e) => e.event.endsWith('-chat')), who).toEqual([]);
    }

    // The owner removes the member: it hears `delete`, then nothing of the chat.
    await t.request(ownerToken, 'PUT', `/chats/${chat.id}`, { users: [outsider.id] });
    await t.request(ownerToken, 'POST', `/chats/${chat.id}/messages`, { message: 'só para quem ficou' });
    await settle();
    const memberEvents = seen.member.filter((e) => e.event === chatEvent).map((e) => e.payload.action);
    expect(memberEvents).toEqual(['update', 'new-message', 'delete']);
    const outsiderEvents = seen.outsider.filter((e) => e.event === chatEvent);
    expect(outsiderEvents.map((e) => e.payload.action)).toEqual(['update', 'new-message']);
    expect(outsiderEvents[1]!.payload).toMatchObject({ newMessage: { message: 'só para quem ficou' } });
    expect(seen.admin.filter((e) => e.event.endsWith('-chat'))).toEqual([]);
    expect(seen.other.filter((e) => e.event.endsWith('-chat'))).toEqual([]);
  });

  it('an announcement reaches the sockets of every company', async () => {
    const first = recorder(await connect(owner));
    const second = recorder(await connect(other.admin));
    const superToken = (await t.login(SUPER_ADMIN.email, SUPER_ADMIN.password)).token;
    const created = (await t.request(superToken, 'POST', '/announcements', { title: 'Para todos', text: 'Aviso geral', priority: 1 })).json();
    await t.request(superToken, 'DELETE', `/announcements/${created.id}`);
    await settle();
    for (const seen of [first, second]) {
      const events = seen.filter((e) => e.event === ANNOUNCEMENT_EVENT).map((e) => e.payload);
      expect(events).toEqual([
        { action: 'create', record: expect.objectContaining({ id: created.id, title: 'Para todos', priority: 1, status: true }) },
        { action: 'delete', id: created.id },
      ]);
    }
  });
});
