import ExcelJS from 'exceljs';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany } from '../../test/factories.js';
import { multipartForm } from '../../test/multipart.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

/**
 * The socket events the whaticket v6 web client listens for where their names or payload keys
 * differ from the spec's (issue 32): sent next to the spec's, to the same rooms, so a socket of
 * that client hears them and a socket of another company hears nothing.
 */
let t: TestContext;
let clients: SocketClients;

beforeAll(async () => {
  t = await createTestContext({ realtime: true, listen: true });
  clients = socketClients(t.app);
});
afterAll(async () => {
  clients?.closeAll();
  await t.close();
});

const connect = (token: string): Promise<Socket> => clients.connect(token, 'ready');

/** Every event a socket hears, by name, with its payload. */
function recordAll(socket: Socket): [string, Record<string, unknown>][] {
  const seen: [string, Record<string, unknown>][] = [];
  socket.onAny((event: string, payload: Record<string, unknown>) => seen.push([event, payload]));
  return seen;
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 300));

describe('whaticket v6 socket events', () => {
  let a: BuiltCompany;
  let adminToken: string;
  let member: { id: number; token: string };
  let heard: [string, Record<string, unknown>][];
  let memberHeard: [string, Record<string, unknown>][];
  let otherHeard: [string, Record<string, unknown>][];
  const named = (list: typeof heard, name: string) => list.filter(([event]) => event === name).map(([, payload]) => payload);

  beforeAll(async () => {
    a = await t.factories.buildCompany();
    const b = await t.factories.buildCompany();
    adminToken = (await a.admin.login()).token;
    const user = await t.factories.buildUser(a.id, { profile: 'user' });
    member = { id: user.id, token: (await user.login()).token };
    heard = recordAll(await connect(adminToken));
    memberHeard = recordAll(await connect(member.token));
    otherHeard = recordAll(await connect((await b.admin.login()).token));
  });

  it('quick messages as `company{id}-quickemessage` with record and id', async () => {
    const created = (await t.request(adminToken, 'POST', '/quick-messages', { shortcode: 'ola', message: 'Olá, tudo bem?', geral: true })).json<{ id: number }>();
    await t.request(adminToken, 'DELETE', `/quick-messages/${created.id}`);
    await settle();
    expect(named(heard, `company${a.id}-quickemessage`)).toEqual([
      { action: 'create', record: expect.objectContaining({ id: created.id, shortcode: 'ola' }), id: created.id },
      { action: 'delete', id: created.id },
    ]);
  });

  it('schedules as `company{id}-schedule`, tags on the bare `user` with tags and tagId', async () => {
    const tag = (await t.request(adminToken, 'POST', '/tags', { name: 'VIP', color: '#ff0000', kanban: 0 })).json<{ id: number }>();
    await t.request(adminToken, 'DELETE', `/tags/${tag.id}`);
    const contact = (await t.request(adminToken, 'POST', '/contacts', { name: 'Cliente', number: '5511955554444' })).json<{ id: number }>();
    const sendAt = new Date(Date.now() + 86_400_000).toISOString();
    const schedule = (await t.request(adminToken, 'POST', '/schedules', { body: 'Lembrete', contactId: contact.id, sendAt })).json<{ id: number }>();
    await settle();
    expect(named(heard, 'user')).toEqual([
      { action: 'create', tags: expect.objectContaining({ id: tag.id, name: 'VIP' }), tagId: tag.id },
      { action: 'delete', tagId: tag.id },
    ]);
    expect(named(heard, `company${a.id}-schedule`)).toEqual([{ action: 'create', schedule: expect.objectContaining({ id: schedule.id, body: 'Lembrete' }) }]);
  });

  it('file lists carry `files`', async () => {
    const list = (await t.request(adminToken, 'POST', '/files', { name: 'Catálogo', message: 'Segue catálogo', options: [] })).json<{ id: number }>();
    await settle();
    expect(named(heard, `company-${a.id}-file`)).toEqual([expect.objectContaining({ action: 'create', files: expect.objectContaining({ id: list.id, name: 'Catálogo' }) })]);
  });

  it("internal chats: each member's `chat-user-{userId}` list and the open chat's `chat-{chatId}`", async () => {
    const chat = (await t.request(adminToken, 'POST', '/chats', { title: 'Equipe', users: [{ id: member.id }] })).json<{ id: number }>();
    await t.request(adminToken, 'POST', `/chats/${chat.id}/messages`, { message: 'Oi equipe' });
    await settle();
    expect(named(memberHeard, `company-${a.id}-chat-user-${member.id}`)).toEqual([{ action: 'create', record: expect.objectContaining({ id: chat.id, title: 'Equipe' }) }]);
    expect(named(heard, `company-${a.id}-chat-user-${a.admin.id}`)).toEqual([{ action: 'create', record: expect.objectContaining({ id: chat.id }) }]);
    // A member hears only its own list's name.
    expect(named(memberHeard, `company-${a.id}-chat-user-${a.admin.id}`)).toEqual([]);
    // A chat just made is announced to its members' lists only (v6's open chat would drop it from the list on an `update`).
    expect(named(memberHeard, `company-${a.id}-chat-${chat.id}`)).toEqual([
      { action: 'new-message', newMessage: expect.objectContaining({ message: 'Oi equipe', chatId: chat.id, chat: expect.objectContaining({ users: expect.arrayContaining([expect.objectContaining({ userId: member.id })]) }) }), chat: expect.objectContaining({ id: chat.id }) },
    ]);
  });

  it("a contact list's upload reloads with the list's first page as `records`, also under the list's own name", async () => {
    const list = (await t.request(adminToken, 'POST', '/contact-lists', { name: 'Clientes' })).json<{ id: number }>();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet('Contatos');
    for (const row of [['nome', 'numero'], ['Ana Souza', '5511900001111'], ['Bruno Lima', '5511900002222']]) sheet.addRow(row);
    const form = multipartForm({ file: { fileName: 'lista.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', data: Buffer.from(await workbook.xlsx.writeBuffer()) } });
    const uploaded = await t.app.inject({ method: 'POST', url: `/contact-lists/${list.id}/upload`, headers: { authorization: `Bearer ${adminToken}`, ...form.headers }, payload: form.payload });
    expect(uploaded.statusCode).toBe(200);
    await settle();
    const names = (payload: Record<string, unknown>) => (payload.records as { name: string }[]).map((record) => record.name);
    const general = named(heard, `company-${a.id}-ContactListItem`).filter((payload) => payload.action === 'reload');
    expect(general.map(names)).toEqual([['Ana Souza', 'Bruno Lima']]);
    expect(named(heard, `company-${a.id}-ContactListItem-${list.id}`).map(names)).toEqual([['Ana Souza', 'Bruno Lima']]);
  });

  it('another company hears none of it', () => {
    expect(otherHeard.filter(([event]) => event.includes(String(a.id)) || event === 'user')).toEqual([]);
  });
});
