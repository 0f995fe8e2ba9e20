import { DEFAULT_SCHEDULES, presentSchedules } from '@atende/shared';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { rooms } from '../../platform/realtime/rooms.js';
import type { BuiltCompany } from '../../test/factories.js';
import { multipart } from '../../test/multipart.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let agentToken: string;
let other: BuiltCompany;
let otherToken: string;
let seq = 0;

const color = () => `#C0${String(++seq).padStart(4, '0')}`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 50));

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  agentToken = (await (await t.factories.buildUser(company.id)).login()).token;
  other = await t.factories.buildCompany();
  otherToken = (await other.admin.login()).token;
});
afterAll(() => t.close());

describe('queues', () => {
  it('an admin creates a queue with the default hours; everyone lists them in bot order', async () => {
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    const second = await t.request(adminToken, 'POST', '/queue', { name: 'Suporte', color: color(), orderQueue: 2, greetingMessage: 'Olá {{name}}' });
    expect(second.statusCode).toBe(201);
    expect(second.json()).toMatchObject({ name: 'Suporte', orderQueue: 2, greetingMessage: 'Olá {{name}}', integrationId: null, promptId: null });
    expect(second.json().schedules).toEqual(presentSchedules(DEFAULT_SCHEDULES));
    const first = (await t.request(adminToken, 'POST', '/queue', { name: 'Vendas', color: color(), orderQueue: 1 })).json();
    await settle();
    expect(spy).toHaveBeenCalledWith(company.id, [rooms.company(company.id)], 'queue', expect.objectContaining({ action: 'create', queue: expect.objectContaining({ name: 'Vendas' }) }));
    spy.mockRestore();
    const list = await t.request(agentToken, 'GET', '/queue');
    expect(list.statusCode).toBe(200);
    expect(list.json().map((q: { id: number }) => q.id).slice(0, 2)).toEqual([first.id, second.json().id]);
    expect((await t.request(agentToken, 'GET', `/queue/${first.id}`)).json().name).toBe('Vendas');
  });

  it('refuses texts with a placeholder that is no message variable, naming it per field', async () => {
    const refused = await t.request(adminToken, 'POST', '/queue', {
      name: 'Variáveis',
      color: color(),
      greetingMessage: '{{saudação}} {nome}, {{setor}}',
      outOfHoursMessage: 'Fechado, {cliente}',
      ratingMessage: 'Avalie, {{firstName}}',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual({ error: 'ERR_UNKNOWN_MESSAGE_VARIABLE', fields: { greetingMessage: ['{{setor}}'], outOfHoursMessage: ['{cliente}'] } });
  });

  it('validates name 2–50 and colour 3–9, and ignores unknown fields', async () => {
    const short = await t.request(adminToken, 'POST', '/queue', { name: 'A', color: 'ab' });
    expect(short.statusCode).toBe(400);
    expect(short.json().fields).toMatchObject({ name: ['Too Short!'], color: ['Too Short!'] });
    const long = await t.request(adminToken, 'POST', '/queue', { name: 'x'.repeat(51), color: '#1234567890' });
    expect(long.json().fields).toMatchObject({ name: ['Too Long!'], color: ['Too Long!'] });
    expect((await t.request(adminToken, 'POST', '/queue', { color: color() })).json().fields.name).toEqual(['Required']);
    const extra = await t.request(adminToken, 'POST', '/queue', { name: 'Fila extra', color: color(), token: 'x', companyId: 999 });
    expect(extra.statusCode).toBe(201);
    expect(extra.json()).not.toHaveProperty('token');
    const badHours = await t.request(adminToken, 'POST', '/queue', {
      name: 'Fila',
      color: color(),
      schedules: [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '8h', endTime: '18:00' }],
    });
    expect(badHours.statusCode).toBe(400);
  });

  it('a colour is unique per company, whatever its case (ERR_QUEUE_COLOR_ALREADY_EXISTS)', async () => {
    const taken = (await t.request(adminToken, 'POST', '/queue', { name: 'Financeiro', color: '#ABCABC' })).json();
    const again = await t.request(adminToken, 'POST', '/queue', { name: 'Outra', color: '#abcabc' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    const mine = (await t.request(adminToken, 'POST', '/queue', { name: 'Outra', color: color() })).json();
    expect((await t.request(adminToken, 'PUT', `/queue/${mine.id}`, { color: '#ABCABC' })).json().error).toBe('ERR_QUEUE_COLOR_ALREADY_EXISTS');
    // Resending its own colour is no conflict; another company may use it.
    expect((await t.request(adminToken, 'PUT', `/queue/${taken.id}`, { color: '#ABCABC', name: 'Financeiro 2' })).statusCode).toBe(200);
    expect((await t.request(otherToken, 'POST', '/queue', { name: 'Financeiro', color: '#ABCABC' })).statusCode).toBe(201);
  });

  it("edits only the fields sent, and keeps the plan's queue limit", async () => {
    const queue = (await t.request(adminToken, 'POST', '/queue', { name: 'Pós-venda', color: color(), outOfHoursMessage: 'Fechado' })).json();
    const edited = await t.request(adminToken, 'PUT', `/queue/${queue.id}`, { greetingMessage: 'Oi!', orderQueue: '' });
    expect(edited.json()).toMatchObject({ name: 'Pós-venda', outOfHoursMessage: 'Fechado', greetingMessage: 'Oi!', orderQueue: null });

    const limited = await t.factories.buildCompany({ plan: { queues: 1 } });
    const limitedToken = (await limited.admin.login()).token;
    expect((await t.request(limitedToken, 'POST', '/queue', { name: 'Única', color: color() })).statusCode).toBe(201);
    const over = await t.request(limitedToken, 'POST', '/queue', { name: 'Segunda', color: color() });
    expect(over.statusCode).toBe(403);
    expect(over.json().error).toBe('ERR_QUEUE_LIMIT_REACHED');
  });

  it('only admins change queues', async () => {
    expect((await t.request(agentToken, 'POST', '/queue', { name: 'Fila', color: color() })).statusCode).toBe(403);
    const queue = (await t.request(adminToken, 'POST', '/queue', { name: 'Fila do admin', color: color() })).json();
    expect((await t.request(agentToken, 'PUT', `/queue/${queue.id}`, { name: 'Minha' })).statusCode).toBe(403);
    expect((await t.request(agentToken, 'DELETE', `/queue/${queue.id}`)).statusCode).toBe(403);
  });

  it("names an integration or prompt only of its own company, and only when the plan allows it", async () => {
    const foreignPrompt = await t.request(adminToken, 'POST', '/queue', { name: 'Com IA', color: color(), promptId: 999_999 });
    expect(foreignPrompt.statusCode).toBe(404);
    expect(foreignPrompt.json().error).toBe('ERR_NO_PROMPT_FOUND');
    const foreignIntegration = await t.request(adminToken, 'POST', '/queue', { name: 'Com bot', color: color(), integrationId: 999_999 });
    expect(foreignIntegration.json().error).toBe('ERR_NO_INTEGRATION_FOUND');
    const noAi = await t.factories.buildCompany({ plan: { useOpenAi: false } });
    const refused = await t.request((await noAi.admin.login()).token, 'POST', '/queue', { name: 'Com IA', color: color(), promptId: 1 });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
  });

  it("another company's queue is not found", async () => {
    const foreign = (await t.request(otherToken, 'POST', '/queue', { name: 'Alheia', color: color() })).json();
    for (const [method, body] of [['GET', undefined], ['PUT', { name: 'Minha agora' }], ['DELETE', undefined]] as const) {
      const response = await t.request(adminToken, method, `/queue/${foreign.id}`, body);
      expect(response.statusCode).toBe(404);
      expect(response.json().error).toBe('ERR_NO_QUEUE_FOUND');
    }
    expect((await t.request(adminToken, 'GET', '/queue')).json().map((q: { id: number }) => q.id)).not.toContain(foreign.id);
  });

  it('deleting a queue leaves its tickets without a queue and tells the company', async () => {
    const queue = (await t.request(adminToken, 'POST', '/queue', { name: 'Temporária', color: color() })).json();
    const ticket = await createServiceDeskFactories(t.database.db).buildTicket(company.id, { queueId: queue.id });
    const spy = vi.spyOn(t.app.services.publisher, 'toRooms');
    expect((await t.request(adminToken, 'DELETE', `/queue/${queue.id}`)).json()).toEqual({ message: 'Queue deleted' });
    await settle();
    expect(spy).toHaveBeenCalledWith(company.id, [rooms.company(company.id)], 'queue', { action: 'delete', queueId: queue.id });
    spy.mockRestore();
    expect((await t.request(adminToken, 'GET', `/tickets/${ticket.id}`)).json().queueId).toBeNull();
    expect((await t.request(adminToken, 'GET', `/queue/${queue.id}`)).statusCode).toBe(404);
  });
});

describe("whaticket v6's queue form", () => {
  const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');
  const upload = (token: string, id: number) => {
    const form = multipart('saudacao.png', 'image/png', PNG);
    return t.app.inject({ method: 'POST', url: `/queue/${id}/media-upload`, headers: { authorization: `Bearer ${token}`, ...form.headers }, payload: form.payload });
  };

  it('takes the two intervals of each day (`startTimeA`…`endTimeB`, "" closed) and the whole record echoed back', async () => {
    const week = [
      { weekday: 'Segunda-feira', weekdayEn: 'monday', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' },
      { weekday: 'Domingo', weekdayEn: 'sunday', startTimeA: '', endTimeA: '', startTimeB: '', endTimeB: '' },
    ];
    const created = await t.request(adminToken, 'POST', '/queue', { name: 'Turnos', color: color(), greetingMessage: 'Olá', outOfHoursMessage: '', orderQueue: '', integrationId: '', promptId: null, linkToGroup: false, schedules: week });
    expect(created.statusCode).toBe(201);
    const queue = created.json();
    expect(queue.schedules[0]).toEqual({ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '12:00', startTimeA: '08:00', endTimeA: '12:00', startTimeB: '13:00', endTimeB: '18:00' });
    const edited = await t.request(adminToken, 'PUT', `/queue/${queue.id}`, { ...queue, schedules: [{ ...week[0], startTimeB: '14:00' }], mediaPath: null, mediaName: null });
    expect(edited.statusCode).toBe(200);
    expect(edited.json().schedules).toEqual([expect.objectContaining({ startTimeA: '08:00', startTimeB: '14:00', endTimeB: '18:00' })]);
  });

  it("stores the greeting's file (admins), shows it by name, removes it; another company's queue is not found", async () => {
    const queue = (await t.request(adminToken, 'POST', '/queue', { name: 'Com arquivo', color: color() })).json<{ id: number }>();
    const stored = await upload(adminToken, queue.id);
    expect(stored.statusCode).toBe(200);
    expect(stored.json()).toMatchObject({ id: queue.id, mediaPath: 'saudacao.png', mediaName: 'saudacao.png' });
    expect((await t.request(agentToken, 'GET', `/queue/${queue.id}`)).json()).toMatchObject({ mediaName: 'saudacao.png' });
    expect((await upload(agentToken, queue.id)).statusCode).toBe(403);
    expect((await upload(otherToken, queue.id)).statusCode).toBe(404);
    expect((await t.request(otherToken, 'DELETE', `/queue/${queue.id}/media-upload`)).statusCode).toBe(404);
    expect((await t.request(adminToken, 'DELETE', `/queue/${queue.id}/media-upload`)).json()).toMatchObject({ mediaPath: null, mediaName: null });
    // v6 posts a new queue's file to /queue/undefined/media-upload.
    expect((await t.request(adminToken, 'POST', '/queue/undefined/media-upload', {})).statusCode).toBe(400);
  });
});
