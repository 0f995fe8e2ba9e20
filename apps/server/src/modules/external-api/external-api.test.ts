import { VALIDATION_MESSAGES } from '@atende/shared';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { contacts, messages, sandboxOutbox, tickets, whatsapps } from '../../platform/db/schema.js';
import type { BuiltCompany } from '../../test/factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { SANDBOX_NOT_ON_WHATSAPP_PREFIX } from '../../channels/sandbox/sandbox.provider.js';
import { inTenant } from '../../platform/db/tenant.js';

let t: TestContext;
let company: BuiltCompany;
let adminToken: string;
let rival: BuiltCompany;
// The server makes connection tokens: these hold what it answered.
let TOKEN: string;
let RIVAL_TOKEN: string;
let connectionId: number;
let rivalConnectionId: number;

beforeAll(async () => {
  t = await createTestContext();
  company = await t.factories.buildCompany();
  rival = await t.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  const created = await t.request(adminToken, 'POST', '/whatsapp', { name: 'API', provider: 'sandbox', token: 'new-token-please-0123' });
  ({ id: connectionId, token: TOKEN } = created.json());
  const rivalAdmin = (await rival.admin.login()).token;
  ({ id: rivalConnectionId, token: RIVAL_TOKEN } = (await t.request(rivalAdmin, 'POST', '/whatsapp', { name: 'API B', provider: 'sandbox', token: 'new-token-please-0123' })).json());
  // A connection without a token: an empty bearer must never reach it.
  await t.request(adminToken, 'POST', '/whatsapp', { name: 'Sem token', provider: 'sandbox', token: '' });
});
afterAll(() => t.close());

const send = (token: string | null, payload: unknown, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/messages/send',
    headers: { ...(token === null ? {} : { authorization: `Bearer ${token}` }), ...headers },
    payload: payload as object,
  });

async function ticketFor(companyId: number, number: string) {
  const [row] = await t.database.db
    .select({ id: tickets.id, status: tickets.status, whatsappId: tickets.whatsappId })
    .from(tickets)
    .innerJoin(contacts, eq(contacts.id, tickets.contactId))
    .where(inTenant(tickets, { companyId }, eq(contacts.number, number)));
  return row ?? null;
}

describe('POST /api/messages/send', () => {
  it('with the connection token: the contact and a ticket are created, the message sent and visible in the ticket', async () => {
    const response = await send(TOKEN, { number: '+55 (11) 97777-0001', body: 'Seu pedido foi enviado' });
    expect(response.statusCode).toBe(200);
    const { ticketId, messageIds } = response.json();
    expect(messageIds).toHaveLength(1);
    expect(await ticketFor(company.id, '5511977770001')).toMatchObject({ id: ticketId, status: 'pending', whatsappId: connectionId });
    const page = (await t.request(adminToken, 'GET', `/messages/${ticketId}`)).json();
    expect(page.messages).toEqual([expect.objectContaining({ body: 'Seu pedido foi enviado', fromMe: true, source: 'system' })]);
    const outbox = await t.database.db.select().from(sandboxOutbox).where(eq(sandboxOutbox.number, '5511977770001'));
    expect(outbox.map((o) => o.body)).toEqual(['Seu pedido foi enviado']);

    // The same contact again: the same ticket.
    const again = await send(TOKEN, { number: '5511977770001', body: 'Chega amanhã' });
    expect(again.json().ticketId).toBe(ticketId);
  });

  it('multipart with medias: each file sent, the first with the caption', async () => {
    const boundary = '----atende-external';
    const payload = [
      `--${boundary}\r\nContent-Disposition: form-data; name="number"\r\n\r\n5511977770002\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="body"\r\n\r\nSegue a nota\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="nota.pdf"\r\nContent-Type: application/pdf\r\n\r\n%PDF-1.4 fake\r\n`,
      `--${boundary}\r\nContent-Disposition: form-data; name="medias"; filename="foto.png"\r\nContent-Type: image/png\r\n\r\npng\r\n`,
      `--${boundary}--\r\n`,
    ].join('');
    const response = await send(TOKEN, payload, { 'content-type': `multipart/form-data; boundary=${boundary}` });
    expect(response.statusCode).toBe(200);
    const stored = await t.database.db.select().from(messages).where(eq(messages.ticketId, response.json().ticketId));
    expect(stored.map((m) => [m.mediaType, m.mediaName, m.body])).toEqual([
      ['application', 'nota.pdf', 'Segue a nota'],
      ['image', 'foto.png', 'foto.png'],
    ]);
  });

  it('refuses a wrong, missing or empty token with 401 and sends nothing', async () => {
    const outboxBefore = (await t.database.db.select().from(sandboxOutbox)).length;
    for (const token of ['wrong-token-0123456789abcdef', null, '', ' ']) {
      const response = await send(token, { number: '5511977770003', body: 'x' });
      expect(response.statusCode, String(token)).toBe(401);
      expect(response.json().error).toBe('ERR_INVALID_API_TOKEN');
    }
    const bare = await t.app.inject({ method: 'POST', url: '/api/messages/send', headers: { authorization: 'Bearer' }, payload: { number: '5511977770003', body: 'x' } });
    expect(bare.statusCode).toBe(401);
    expect((await t.database.db.select().from(sandboxOutbox)).length).toBe(outboxBefore);
    expect(await ticketFor(company.id, '5511977770003')).toBeNull();
  });

  it('refuses when the plan does not allow the external API', async () => {
    const noApi = await t.factories.buildCompany({ plan: { useExternalApi: false } });
    const token = (await noApi.admin.login()).token;
    const planOff = (await t.request(token, 'POST', '/whatsapp', { name: 'Sem API', provider: 'sandbox', token: 'new-token-please-0123' })).json();
    const response = await send(planOff.token, { number: '5511977770004', body: 'x' });
    expect(response.statusCode).toBe(403);
    expect(response.json().error).toBe('ERR_PLAN_FEATURE_DISABLED');
    expect(await ticketFor(noApi.id, '5511977770004')).toBeNull();
  });

  it("another company's token sends only through that company's connection: nothing reaches this company", async () => {
    const response = await send(RIVAL_TOKEN, { number: '5511977770005', body: 'Da outra empresa' });
    expect(response.statusCode).toBe(200);
    expect(await ticketFor(company.id, '5511977770005')).toBeNull();
    expect(await ticketFor(rival.id, '5511977770005')).toMatchObject({ whatsappId: rivalConnectionId });
    // The payload cannot pick a company or a connection: those fields are not declared, so they are dropped.
    const smuggled = await send(RIVAL_TOKEN, { number: '5511977770006', body: 'x', companyId: company.id, whatsappId: connectionId });
    expect(smuggled.statusCode).toBe(200);
    expect(await ticketFor(company.id, '5511977770006')).toBeNull();
    expect(await ticketFor(rival.id, '5511977770006')).toMatchObject({ whatsappId: rivalConnectionId });
  });

  it('checks the number on WhatsApp first: ERR_WAPP_INVALID_CONTACT creates nothing', async () => {
    // The sandbox's "not on WhatsApp" numbers start with 999, which the normaliser refuses first: its answer is played here.
    const [connection] = await t.database.db.select().from(whatsapps).where(eq(whatsapps.id, connectionId));
    const sandbox = t.app.services.channels.providerFor(connection!);
    const number = '5511977770007';
    const check = vi.spyOn(sandbox, 'checkNumber').mockResolvedValueOnce({ exists: false, number });
    try {
      const response = await send(TOKEN, { number, body: 'x' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error).toBe('ERR_WAPP_INVALID_CONTACT');
      expect(check).toHaveBeenCalledWith(expect.objectContaining({ id: connectionId }), number);
    } finally {
      check.mockRestore();
    }
    const [contact] = await t.database.db.select().from(contacts).where(eq(contacts.number, number));
    expect(contact).toBeUndefined();
    // On WhatsApp this time: the check, not the payload, refused it.
    expect((await send(TOKEN, { number, body: 'x' })).statusCode).toBe(200);
    // A number no country has is refused by the payload, before any check.
    expect((await send(TOKEN, { number: `${SANDBOX_NOT_ON_WHATSAPP_PREFIX}11977770007`, body: 'x' })).json().error).toBe('ERR_VALIDATION');
  });

  it('validates the payload: a number is required, and text or a file', async () => {
    expect((await send(TOKEN, { body: 'sem número' })).statusCode).toBe(400);
    expect((await send(TOKEN, { number: '123', body: 'curto' })).statusCode).toBe(400);
    expect((await send(TOKEN, { number: '5511977770008', body: '   ' })).json().error).toBe('ERR_EMPTY_MESSAGE');
  });

  it('reads the number with the one normaliser: without the country code it gets 55; one it cannot make valid is 400 naming the field', async () => {
    const sent = await send(TOKEN, { number: '(11) 97777-0009', body: 'Oi' });
    expect(sent.statusCode).toBe(200);
    expect(await ticketFor(company.id, '5511977770009')).toMatchObject({ id: sent.json().ticketId });
    const bad = await send(TOKEN, { number: '91234-0002', body: 'Oi' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error: 'ERR_VALIDATION', fields: { number: [VALIDATION_MESSAGES['validation.invalidPhoneNumber']] } });
  });
});
