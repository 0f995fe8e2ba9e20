import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { linkQueues, sandboxPhone } from '../../test/automation-harness.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let agentToken: string;
let otherToken: string;
let queueId: number;

interface OptionJson {
  id: number;
  option: string;
  title: string;
  parentId: number | null;
  children: OptionJson[];
  mediaName: string | null;
  mediaUrl: string | null;
}

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(company.id)).login()).token;
  otherToken = (await (await t.factories.buildCompany()).admin.login()).token;
  queueId = (await t.factories.buildQueue(company.id, { name: 'Suporte' })).id;
});
afterAll(() => t.close());

const create = async (body: Record<string, unknown>) => {
  const response = await t.request(adminToken, 'POST', '/queue-options', { queueId, ...body });
  expect(response.statusCode).toBe(201);
  return response.json<OptionJson>();
};

function upload(optionId: number, file: { name: string; type: string; content: string }) {
  const boundary = '----atende-option';
  const payload = `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${file.name}"\r\nContent-Type: ${file.type}\r\n\r\n${file.content}\r\n--${boundary}--\r\n`;
  return t.app.inject({
    method: 'POST',
    url: `/queue-options/${optionId}/media-upload`,
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    payload,
  });
}

describe('queue option tree', () => {
  it('builds a nested tree: positions default to the next number, GET answers a level with its subtrees', async () => {
    const first = await create({ parentId: -1, title: 'Internet', message: 'Qual o problema?' });
    const second = await create({ parentId: null, title: 'Financeiro' });
    expect([first.option, second.option]).toEqual(['1', '2']);
    const child = await create({ parentId: first.id, title: 'Lenta', message: 'Reinicie o roteador.' });
    await create({ parentId: first.id, title: 'Sem sinal', option: '5' });
    expect(child).toMatchObject({ parentId: first.id, option: '1', children: [] });

    const roots = (await t.request(agentToken, 'GET', `/queue-options?queueId=${queueId}&parentId=-1`)).json<OptionJson[]>();
    expect(roots.map((o) => [o.option, o.title])).toEqual([
      ['1', 'Internet'],
      ['2', 'Financeiro'],
    ]);
    expect(roots[0]?.children.map((o) => [o.option, o.title])).toEqual([
      ['1', 'Lenta'],
      ['5', 'Sem sinal'],
    ]);
    const level = (await t.request(adminToken, 'GET', `/queue-options?queueId=${queueId}&parentId=${first.id}`)).json<OptionJson[]>();
    expect(level.map((o) => o.title)).toEqual(['Lenta', 'Sem sinal']);
  });

  it('refuses a position already used at the same level, and 0 or # (reserved)', async () => {
    const parent = await create({ title: 'Planos' });
    await create({ parentId: parent.id, title: 'Básico', option: '1' });
    const clash = await t.request(adminToken, 'POST', '/queue-options', { queueId, parentId: parent.id, title: 'Outro', option: 1 });
    expect(clash.statusCode).toBe(409);
    expect(clash.json().error).toBe('ERR_QUEUE_OPTION_ALREADY_EXISTS');
    for (const option of ['0', '#', 'a']) {
      expect((await t.request(adminToken, 'POST', '/queue-options', { queueId, title: 'X', option })).statusCode).toBe(400);
    }
    expect((await t.request(adminToken, 'POST', '/queue-options', { queueId, title: '' })).json().fields.title).toContain('Required');
  });

  it("refuses a message with a placeholder that is no message variable, on create and on a change", async () => {
    const refused = await t.request(adminToken, 'POST', '/queue-options', { queueId, title: 'Boleto', message: 'Olá {nome}, segue o {{boleto}}' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { message: ['{{boleto}}'] } });
    const option = await create({ title: 'Boleto', message: 'Olá {nome}, protocolo {{protocol}}' });
    const changed = await t.request(adminToken, 'PUT', `/queue-options/${option.id}`, { message: 'Olá {nomeCompleto}' });
    expect(changed.json()).toMatchObject({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { message: ['{nomeCompleto}'] } });
  });

  it('edits and deletes at each node; deleting a node takes its subtree', async () => {
    const node = await create({ title: 'Cancelamento' });
    const leaf = await create({ parentId: node.id, title: 'Confirmar' });
    const edited = await t.request(adminToken, 'PUT', `/queue-options/${node.id}`, { title: 'Cancelar plano', message: 'Tem certeza?' });
    expect(edited.json()).toMatchObject({ title: 'Cancelar plano', message: 'Tem certeza?', option: node.option });
    expect((await t.request(adminToken, 'DELETE', `/queue-options/${node.id}`)).json()).toEqual({ message: 'Option deleted' });
    expect((await t.request(adminToken, 'GET', `/queue-options/${leaf.id}`)).statusCode).toBe(404);
  });

  it('only admins change the tree; another company sees nothing of it', async () => {
    expect((await t.request(agentToken, 'POST', '/queue-options', { queueId, title: 'Nova' })).statusCode).toBe(403);
    const mine = await create({ title: 'Privada' });
    expect((await t.request(otherToken, 'GET', `/queue-options?queueId=${queueId}`)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'POST', '/queue-options', { queueId, title: 'Intrusa' })).statusCode).toBe(404);
    for (const method of ['GET', 'PUT', 'DELETE'] as const) {
      const response = await t.request(otherToken, method, `/queue-options/${mine.id}`, method === 'PUT' ? { title: 'X' } : undefined);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
    }
    // A parent of another queue is not a parent here.
    const elsewhere = await t.factories.buildQueue(company.id);
    const wrongParent = await t.request(adminToken, 'POST', '/queue-options', { queueId: elsewhere.id, parentId: mine.id, title: 'Filha' });
    expect(wrongParent.json().error).toBe('ERR_NO_QUEUE_OPTION_FOUND');
  });

  it('a leaf with an attachment sends its message and the file to the customer', async () => {
    const desk = createServiceDeskFactories(t.database.db);
    const queue = await t.factories.buildQueue(company.id, { name: 'Boletos' });
    const connection = await desk.buildConnection(company.id, { greetingMessage: '' });
    await linkQueues(t.database, company.id, connection.id, [queue.id]);
    const leaf = (await t.request(adminToken, 'POST', '/queue-options', { queueId: queue.id, title: 'Segunda via', message: 'Segue o boleto.' })).json<OptionJson>();
    const uploaded = await upload(leaf.id, { name: 'boleto junho.pdf', type: 'application/pdf', content: '%PDF-1.4 fake' });
    expect(uploaded.statusCode).toBe(200);
    expect(uploaded.json()).toMatchObject({ mediaName: 'boleto_junho.pdf' });
    expect(uploaded.json().mediaUrl).toMatch(/^\/media\//);

    const phone = sandboxPhone(t, adminToken, connection.id, '5511955550001');
    await phone.say('Oi');
    await phone.received();
    await phone.say('1');
    expect(await phone.receivedWithMedia()).toEqual([{ body: 'Segue o boleto.', mediaName: 'boleto_junho.pdf', mediaType: 'application' }]);

    const removed = await t.request(adminToken, 'DELETE', `/queue-options/${leaf.id}/media-upload`);
    expect(removed.json()).toMatchObject({ mediaName: null, mediaUrl: null });
  });
});
