import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { BuiltCompany, BuiltUser } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let agent: BuiltUser;
let agentToken: string;
let sandboxId: number;

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agent = await t.factories.buildUser(company.id);
  agentToken = (await agent.login()).token;
  const created = await t.request(adminToken, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
  expect(created.statusCode).toBe(201);
  expect(created.json()).toMatchObject({ status: 'CONNECTED', isDefault: true, provider: 'sandbox' });
  sandboxId = created.json().id;
});
afterAll(() => t.close());

const inbound = (body: object) => t.request(adminToken, 'POST', `/sandbox/${sandboxId}/inbound`, body);
/** The ids of the tickets a search (of every status) finds. */
const search = async (words: string) =>
  ((await t.request(adminToken, 'GET', `/tickets?searchParam=${encodeURIComponent(words)}&showAll=true`)).json().tickets as { id: number }[]).map((x) => x.id);

function multipart(fields: Record<string, string>, file: { field: string; name: string; type: string; content: string }) {
  const boundary = '----atende-test-boundary';
  const parts = Object.entries(fields).map(([k, v]) => `--${boundary}\r\nContent-Disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`);
  parts.push(
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n`,
  );
  return { payload: `${parts.join('')}--${boundary}--\r\n`, headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

describe('sandbox inbound → ticket', () => {
  it('a customer message creates the contact and a pending ticket with one unread message', async () => {
    const response = await inbound({ from: '5511999990001', name: 'Maria', body: 'Olá, preciso de ajuda', id: 'wamid-1' });
    expect(response.statusCode).toBe(201);
    const { ticketId, duplicate } = response.json();
    expect(duplicate).toBe(false);
    const ticket = (await t.request(adminToken, 'GET', `/tickets/${ticketId}`)).json();
    expect(ticket).toMatchObject({ status: 'pending', unreadMessages: 1, lastMessage: 'Olá, preciso de ajuda', contact: { name: 'Maria', number: '5511999990001' } });
  });

  it('the same external id twice stores one message and counts one unread', async () => {
    const first = await inbound({ from: '5511999990002', name: 'João', body: 'Oi', id: 'wamid-dup' });
    const again = await inbound({ from: '5511999990002', name: 'João', body: 'Oi', id: 'wamid-dup' });
    expect(again.statusCode).toBe(200);
    expect(again.json().duplicate).toBe(true);
    const ticketId = first.json().ticketId;
    expect((await t.request(adminToken, 'GET', `/tickets/${ticketId}`)).json().unreadMessages).toBe(1);
    await inbound({ from: '5511999990002', body: 'Tem alguém?', id: 'wamid-dup-2' });
    expect((await t.request(adminToken, 'GET', `/tickets/${ticketId}`)).json().unreadMessages).toBe(2);
    const messages = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(messages.map((m: { body: string }) => m.body)).toEqual(['Oi', 'Tem alguém?']);
  });

  it('opening the conversation marks it read and resets unread', async () => {
    const { ticketId } = (await inbound({ from: '5511999990003', body: 'Mensagem 1' })).json();
    await inbound({ from: '5511999990003', body: 'Mensagem 2' });
    const page = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json();
    expect(page.messages.map((m: { body: string; read: boolean }) => [m.body, m.read])).toEqual([
      ['Mensagem 1', true],
      ['Mensagem 2', true],
    ]);
    expect((await t.request(adminToken, 'GET', `/tickets/${ticketId}`)).json().unreadMessages).toBe(0);
  });

  it('a closed ticket is never reopened by the customer: a new pending ticket starts, history spans both', async () => {
    const { ticketId: first } = (await inbound({ from: '5511999990004', body: 'Primeiro atendimento' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${first}`, { status: 'closed' });
    const { ticketId: second } = (await inbound({ from: '5511999990004', body: 'Voltei' })).json();
    expect(second).not.toBe(first);
    expect((await t.request(adminToken, 'GET', `/tickets/${first}`)).json().status).toBe('closed');
    expect((await t.request(adminToken, 'GET', `/tickets/${second}`)).json().status).toBe('pending');
    const history = (await t.request(adminToken, 'GET', `/messages/${second}`)).json().messages;
    expect(history.map((m: { ticketId: number }) => m.ticketId)).toEqual([first, second]);
  });

  it('pages the history newest page first, each page oldest first', async () => {
    let ticketId = 0;
    for (let i = 1; i <= 25; i++) ticketId = (await inbound({ from: '5511999990005', body: `m${i}`, id: `page-${i}` })).json().ticketId;
    const first = (await t.request(adminToken, 'GET', `/messages/${ticketId}?pageNumber=1`)).json();
    expect(first.hasMore).toBe(true);
    expect(first.messages).toHaveLength(20);
    expect(first.messages[0].body).toBe('m6');
    expect(first.messages.at(-1).body).toBe('m25');
    const second = (await t.request(adminToken, 'GET', `/messages/${ticketId}?pageNumber=2`)).json();
    expect(second.hasMore).toBe(false);
    expect(second.messages.map((m: { body: string }) => m.body)).toEqual(['m1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('finds tickets by message words (full-text) and by contact name or number', async () => {
    await inbound({ from: '5511999990006', name: 'Carla Souza', body: 'Meu pedido de geladeira atrasou' });
    const byWord = (await t.request(adminToken, 'GET', '/tickets?searchParam=geladeira&showAll=true')).json();
    expect(byWord.tickets.map((x: { contact: { name: string } }) => x.contact.name)).toEqual(['Carla Souza']);
    const byName = (await t.request(adminToken, 'GET', '/tickets?searchParam=carla&showAll=true')).json();
    expect(byName.tickets).toHaveLength(1);
    const byNumber = (await t.request(adminToken, 'GET', '/tickets?searchParam=99990006&showAll=true')).json();
    expect(byNumber.tickets).toHaveLength(1);
    // Digits inside words do not turn into a number search: every number contains a 6.
    const wordWithDigit = (await t.request(adminToken, 'GET', '/tickets?searchParam=Souza%206&showAll=true')).json();
    expect(wordWithDigit.tickets).toEqual([]);
    const injection = await t.request(adminToken, 'GET', `/tickets?searchParam=${encodeURIComponent("'); drop table tickets; --")}&showAll=true`);
    expect(injection.statusCode).toBe(200);
    expect(injection.json().tickets).toEqual([]);
  });

  it('a search finds the words of any message of a ticket, the agent\'s and edited ones included', async () => {
    const { ticketId } = (await inbound({ from: '5511999990009', body: 'Comprei um fogão Consul', id: 'words-1' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Vou abrir a garantia-estendida' });
    // Case and order do not matter; every word must be in one message.
    expect(await search('CONSUL fogão')).toEqual([ticketId]);
    expect(await search('garantia-estendida')).toEqual([ticketId]);
    expect(await search('consul garantia')).toEqual([]);
    // The customer's edit is searched by its new words.
    await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/edit`, { id: 'words-1', body: 'Comprei um fogão Electrolux' });
    expect(await search('electrolux')).toEqual([ticketId]);
    expect(await search('consul')).toEqual([]);
    expect(await search('...')).toEqual([]);
  });

  it('a deleted ticket or contact takes its messages\' words along', async () => {
    const wordsOf = async (ticketId: number) =>
      Number(((await t.database.db.execute(sql`select count(*)::int as n from message_terms where ticket_id = ${ticketId}`)) as unknown as { rows: { n: number }[] }).rows[0]?.n);
    const { ticketId: first } = (await inbound({ from: '5511999990010', body: 'Orçamento do ar-condicionado Springer' })).json();
    expect(await wordsOf(first)).toBeGreaterThan(0);
    expect((await t.request(adminToken, 'DELETE', `/tickets/${first}`)).statusCode).toBe(200);
    expect(await wordsOf(first)).toBe(0);
    expect(await search('springer')).toEqual([]);

    const { ticketId: second } = (await inbound({ from: '5511999990010', body: 'Outro orçamento Springer' })).json();
    expect(second).not.toBe(first);
    const { contactId } = (await t.request(adminToken, 'GET', `/tickets/${second}`)).json();
    expect(await search('springer')).toEqual([second]);
    expect((await t.request(adminToken, 'DELETE', `/contacts/${contactId}`)).statusCode).toBe(200);
    expect(await wordsOf(second)).toBe(0);
    expect(await search('springer')).toEqual([]);
  });

  it('orders unread tickets first', async () => {
    const { ticketId: read } = (await inbound({ from: '5511999990007', body: 'lido' })).json();
    await t.request(adminToken, 'GET', `/messages/${read}`);
    const { ticketId: unread } = (await inbound({ from: '5511999990008', body: 'não lido' })).json();
    await inbound({ from: '5511999990007', body: 'lido de novo' });
    await t.request(adminToken, 'GET', `/messages/${read}`);
    const list = (await t.request(adminToken, 'GET', '/tickets?status=pending&showAll=true')).json().tickets as { id: number; unreadMessages: number }[];
    const firstRead = list.findIndex((x) => x.unreadMessages === 0);
    const lastUnread = list.map((x) => x.unreadMessages > 0).lastIndexOf(true);
    expect(lastUnread).toBeLessThan(firstRead);
    expect(list.findIndex((x) => x.id === unread)).toBeLessThan(list.findIndex((x) => x.id === read));
  });
});

describe('replies through the sandbox', () => {
  it('only open tickets take messages; empty bodies are refused', async () => {
    const { ticketId } = (await inbound({ from: '5511999990010', body: 'Oi', id: 'reply-1' })).json();
    const pending = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Olá!' });
    expect(pending.statusCode).toBe(400);
    expect(pending.json().error).toBe('ERR_TICKET_NOT_OPEN');
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    expect((await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: '   ' })).json().error).toBe('ERR_EMPTY_MESSAGE');
  });

  it('text, signed text, a quoted reply and a file reach the customer’s phone', async () => {
    const { ticketId } = (await inbound({ from: '5511999990011', name: 'Bia', body: 'Quanto custa?', id: 'q-1' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    const history = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    const question = history[0];

    const text = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'R$ 10', quotedMsg: { id: question.id } });
    expect(text.statusCode).toBe(201);
    expect(text.json()[0]).toMatchObject({ body: 'R$ 10', fromMe: true, ack: 2, quotedMsg: { id: question.id, body: 'Quanto custa?' } });
    const signed = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Obrigado', sign: true });
    expect(signed.json()[0].body).toMatch(/^\*.+:\*\nObrigado$/);

    const form = multipart({ body: 'tabela.pdf' }, { field: 'medias', name: 'tabela de preços.pdf', type: 'application/pdf', content: '%PDF-1.4 fake' });
    const file = await t.app.inject({ method: 'POST', url: `/messages/${ticketId}`, headers: { authorization: `Bearer ${adminToken}`, ...form.headers }, payload: form.payload });
    expect(file.statusCode).toBe(201);
    const sentFile = file.json()[0];
    expect(sentFile).toMatchObject({ mediaType: 'application', mediaName: 'tabela_de_preços.pdf' });
    const download = await t.app.inject({ method: 'GET', url: sentFile.mediaUrl });
    expect(download.statusCode).toBe(200);
    expect(download.body).toBe('%PDF-1.4 fake');
    expect(download.headers['content-disposition']).toMatch(/^attachment/);
    // A tampered signature is refused.
    expect((await t.app.inject({ method: 'GET', url: sentFile.mediaUrl.replace('signature=', 'signature=x') })).statusCode).toBe(404);

    const outbox = (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/outbox?number=5511999990011`)).json();
    expect(outbox).toHaveLength(3);
    expect(outbox[0]).toMatchObject({ body: 'R$ 10', quotedId: 'q-1' });
    expect(outbox[2]).toMatchObject({ mediaType: 'application', mediaName: 'tabela_de_preços.pdf' });
    const conversation = (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/conversation?number=5511999990011`)).json();
    expect(conversation.map((m: { fromCustomer: boolean }) => m.fromCustomer)).toEqual([true, false, false, false]);
    // The phone shows the quoted message above the reply: the reply names the customer's message it quotes.
    expect(conversation.map((m: { id: string; quotedId: string | null }) => m.quotedId)).toEqual([null, 'q-1', null, null]);
    expect(conversation[0].id).toBe('q-1');
  });

  it("a quick message's variables reach the customer filled in for the ticket; an agent's {word} is text; an unknown {{…}} is refused and nothing is stored", async () => {
    const { ticketId } = (await inbound({ from: '5511999990019', name: 'Beatriz Souza', body: 'Oi', id: 'vars-1' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    // A stored quick message is a template: unknown placeholders are refused when it is saved, in both spellings.
    const unknown = await t.request(adminToken, 'POST', '/quick-messages', { shortcode: 'cupom', message: 'Seu cupom: {cupom} {{nme}}' });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { message: ['{cupom}', '{{nme}}'] } });
    const quick = await t.request(adminToken, 'POST', '/quick-messages', { shortcode: 'oi', message: 'Olá {primeiroNome}, protocolo {{ protocol }}. {{Nome}} ({numero})' });
    expect(quick.statusCode).toBe(201);
    const [listed] = ((await t.request(adminToken, 'GET', '/quick-messages/list')).json() as { shortcode: string; message: string }[]).filter((q) => q.shortcode === 'oi');

    // The composer sends the quick message as it is stored; the server fills it for the ticket's contact.
    const sent = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: listed?.message, sign: true });
    expect(sent.statusCode).toBe(201);
    const filled = `Olá Beatriz, protocolo ${ticketId}. Beatriz Souza (5511999990019)`;
    expect(sent.json()[0].body).toMatch(/^\*.+:\*\n/);
    expect(sent.json()[0].body.replace(/^\*.+:\*\n/, '')).toBe(filled);
    const typed = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Preencha {x} no formulário' });
    expect(typed.statusCode).toBe(201);
    const refused = await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Olá {{nme}} e {{firstName}}' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { body: ['{{nme}}'] } });
    const outbox = (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/outbox?number=5511999990019`)).json() as { body: string }[];
    expect(outbox.map((m) => m.body.replace(/^\*.+:\*\n/, ''))).toEqual([filled, 'Preencha {x} no formulário']);
  });

  it('gives a phone message sent without an id one of its own, so replies can quote it', async () => {
    const { ticketId } = (await inbound({ from: '5511999990012', name: 'Caio', body: 'Sem id' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    const [question] = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Respondendo', quotedMsg: { id: question.id } });
    const [reply] = (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/outbox?number=5511999990012`)).json();
    expect(reply.quotedId).toMatch(/^sandbox-in-/);
  });

  it('deletes only one’s own messages, for everyone', async () => {
    const { ticketId } = (await inbound({ from: '5511999990015', body: 'Oi', id: 'del-1' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    const sent = (await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Ops, errado' })).json()[0];
    const customerMessage = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages[0];
    expect((await t.request(adminToken, 'DELETE', `/messages/${customerMessage.id}`)).statusCode).toBe(403);
    const deleted = await t.request(adminToken, 'DELETE', `/messages/${sent.id}`);
    expect(deleted.json()).toMatchObject({ isDeleted: true, body: '' });
    const outbox = (await t.request(adminToken, 'GET', `/sandbox/${sandboxId}/outbox?number=5511999990015`)).json();
    expect(outbox).toEqual([expect.objectContaining({ body: '', deleted: true })]);
  });

  it("another company's tickets, messages and sandbox are 404", async () => {
    const { ticketId } = (await inbound({ from: '5511999990013', body: 'Oi', id: 'iso-1' })).json();
    const other = await t.factories.buildCompany();
    const otherToken = (await other.admin.login()).token;
    expect((await t.request(otherToken, 'GET', `/messages/${ticketId}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'POST', `/messages/${ticketId}`, { body: 'x' })).statusCode).toBe(404);
    expect((await t.request(otherToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511999990013', body: 'x' })).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', `/sandbox/${sandboxId}/outbox?number=5511999990013`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'GET', `/whatsapp/${sandboxId}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'DELETE', `/whatsapp/${sandboxId}`)).statusCode).toBe(404);
    const firstMessage = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages[0];
    expect((await t.request(otherToken, 'DELETE', `/messages/${firstMessage.id}`)).statusCode).toBe(404);
  });

  it('only admins drive the sandbox', async () => {
    expect((await t.request(agentToken, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511999990014', body: 'x' })).statusCode).toBe(403);
  });
});

describe('what the channel reports later', () => {
  it('read receipts raise acks to 3, and acks never go back', async () => {
    const { ticketId } = (await inbound({ from: '5511999990020', body: 'Oi', id: 'ack-1' })).json();
    await t.request(adminToken, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    const sent = (await t.request(adminToken, 'POST', `/messages/${ticketId}`, { body: 'Olá!' })).json()[0];
    expect(sent.ack).toBe(2);
    const read = await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/read`, { number: '5511999990020' });
    expect(read.json()).toEqual({ read: 1 });
    expect((await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/read`, { number: '5511999990020' })).json()).toEqual({ read: 0 });
    const messages = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(messages.find((m: { id: number }) => m.id === sent.id).ack).toBe(3);
  });

  it('a customer edit marks the message edited; a revoke marks it deleted', async () => {
    const { ticketId } = (await inbound({ from: '5511999990021', body: 'Quero 2', id: 'edit-1' })).json();
    expect((await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/edit`, { id: 'edit-1', body: 'Quero 3' })).statusCode).toBe(200);
    await inbound({ from: '5511999990021', body: 'ignorar', id: 'revoke-1' });
    expect((await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/revoke`, { id: 'revoke-1' })).statusCode).toBe(200);
    expect((await t.request(adminToken, 'POST', `/sandbox/${sandboxId}/revoke`, { id: 'no-such-id' })).statusCode).toBe(404);
    const messages = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(messages[0]).toMatchObject({ body: 'Quero 3', isEdited: true, isDeleted: false });
    expect(messages[1]).toMatchObject({ body: '', isDeleted: true });
  });

  it('a missed call and a location arrive as their own kinds', async () => {
    const call = await inbound({ from: '5511999990022', type: 'call' });
    expect(call.statusCode).toBe(201);
    await inbound({ from: '5511999990022', type: 'location', body: 'https://maps.example/?q=-23.5,-46.6' });
    const { ticketId } = call.json();
    const messages = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json().messages;
    expect(messages.map((m: { mediaType: string }) => m.mediaType)).toEqual(['call_log', 'locationMessage']);
  });
});
