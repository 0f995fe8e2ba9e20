import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, whatsapps } from '../../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../../test/fake-webhook-receiver.js';
import { ALLOW_LOOPBACK_PEERS } from '../../test/test-app.js';
import { automationTexts } from '../automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

let h: AutomationHarness;
let receiver: FakeWebhookReceiver;
let token: string;
let whatsappId: number;
let secret: string;
let queueId: number;
let seq = 0;

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
  h = await createAutomationHarness({ env: { ...ALLOW_LOOPBACK_PEERS } });
  const company = await h.factories.buildCompany();
  token = (await company.admin.login()).token;
  queueId = (await h.request(token, 'POST', '/queue', { name: 'Comercial', color: '#ABCDEF' })).json().id;
  const created = await h.request(token, 'POST', '/queueIntegration', { type: 'n8n', name: 'Fluxo n8n', urlN8N: `${receiver.url}/webhook/atende` });
  expect(created.statusCode).toBe(201);
  // Generated and shown in full this once, for the receiver's configuration.
  secret = created.json().signingSecret;
  expect(secret.length).toBeGreaterThanOrEqual(32);
  expect(created.json().projectName).toBe('Fluxo n8n');
  const shown = await h.request(token, 'GET', `/queueIntegration/${created.json().id}`);
  expect(shown.json().signingSecret).not.toBe(secret);
  expect(shown.json().signingSecret).toContain('••••');
  whatsappId = (await h.desk.buildConnection(company.id, { integrationId: created.json().id })).id;
});
afterAll(async () => {
  await h.database.db.update(whatsapps).set({ integrationId: null }).where(eq(whatsapps.id, whatsappId));
  await h.close();
  await receiver.close();
});

const phone = () => sandboxPhone(h, token, whatsappId, `5561990000${String(++seq).padStart(3, '0')}`);

async function ticket(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

describe('n8n / webhook integration', () => {
  it('POSTs the normalized message signed with HMAC-SHA256 and sends the JSON reply back', async () => {
    receiver.respond((request) => ({ json: { text: `Recebido: ${(request.json as { message: { body: string } }).message.body}` } }));
    const customer = phone();
    const { ticketId, messageId } = await customer.say('Quero um orçamento', { name: 'Igor Lopes' });
    expect(await customer.received()).toEqual(['Recebido: Quero um orçamento']);
    const delivery = receiver.requests.at(-1);
    if (!delivery) throw new Error('nothing delivered');
    expect(delivery.path).toBe('/webhook/atende');
    expect(receiver.signatureValid(delivery, secret)).toBe(true);
    expect(receiver.signatureValid(delivery, 'another-secret-value')).toBe(false);
    expect(delivery.headers['x-atende-delivery']).toMatch(new RegExp(`-${messageId}$`));
    expect(delivery.json).toMatchObject({
      event: 'message.received',
      ticket: { id: ticketId, status: 'pending' },
      contact: { name: 'Igor Lopes', number: customer.number },
      message: { id: messageId, body: 'Quero um orçamento', fromMe: false },
    });
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: true, chatbot: true });
  });

  it('a reply may carry several messages and hand the ticket to a queue', async () => {
    receiver.respond(() => ({ json: { messages: ['Certo!', { text: 'Um vendedor vai falar com você.' }], queueId } }));
    const customer = phone();
    const { ticketId } = await customer.say('Falar com vendas');
    expect(await customer.received()).toEqual(['Certo!', 'Um vendedor vai falar com você.']);
    expect(await ticket(ticketId)).toMatchObject({ queueId, useIntegration: false, chatbot: false, status: 'pending' });
  });

  it('an empty 2xx answer is fine: nothing is sent, the bot stays', async () => {
    receiver.respond(() => ({ status: 204 }));
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    expect(await customer.received()).toEqual([]);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: true });
  });
});

describe('webhook failures', () => {
  it('a 500 answers the customer at once, hands over, and retries the delivery with backoff through jobs', async () => {
    receiver.respond(() => ({ status: 500, text: 'workflow error' }));
    const customer = phone();
    const before = receiver.requests.length;
    const { ticketId, messageId } = await customer.say('Oi?');
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: false, chatbot: false, status: 'pending' });

    const retries = h.jobs.pending('automation.webhook-retry');
    expect(retries).toHaveLength(1);
    const firstDelay = (retries[0]?.runAt.getTime() ?? 0) - Date.now();
    expect(firstDelay).toBeGreaterThan(8_000);
    expect(firstDelay).toBeLessThanOrEqual(10_000);

    // Still failing at the first retry: the next waits longer.
    await h.jobs.runDue(new Date(Date.now() + 11_000));
    const second = h.jobs.pending('automation.webhook-retry');
    expect(second).toHaveLength(1);
    expect((second[0]?.runAt.getTime() ?? 0) - Date.now()).toBeGreaterThan(50_000);

    // The receiver recovers: the retry delivers the same event, and its late reply is not sent.
    receiver.respond(() => ({ json: { text: 'tarde demais' } }));
    await h.jobs.runDue(new Date(Date.now() + 61_000));
    const deliveries = receiver.requests.slice(before);
    expect(deliveries.map((d) => d.headers['x-atende-attempt'])).toEqual(['1', '2', '3']);
    expect(new Set(deliveries.map((d) => d.headers['x-atende-delivery']))).toEqual(new Set([deliveries[0]?.headers['x-atende-delivery']]));
    expect((deliveries.at(-1)?.json as { message: { id: number } }).message.id).toBe(messageId);
    expect(h.jobs.pending('automation.webhook-retry')).toHaveLength(0);
    expect(await customer.received()).toEqual([]);
  });

  it('no answer in time counts as a failure too', async () => {
    receiver.respond(() => ({ delayMs: 1500, json: { text: 'lento' } }));
    const customer = phone();
    const { ticketId } = await customer.say('Oi');
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: false });
    // Give up after the configured attempts (10 s, 60 s).
    receiver.respond(() => ({ status: 503 }));
    await h.jobs.runDue(new Date(Date.now() + 11_000));
    await h.jobs.runDue(new Date(Date.now() + 72_000));
    expect(h.jobs.pending('automation.webhook-retry')).toHaveLength(0);
  });
});
