import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queueIntegrations, whatsapps } from '../../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../../test/fake-webhook-receiver.js';
import { automationTexts } from '../automation-texts.js';
import { inTenant } from '../../platform/db/tenant.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

/**
 * Issue 16 defect 3: a tenant admin must not make the server call its own
 * network. This app has no OUTBOUND_ALLOW_PRIVATE (the default of a deployment),
 * so the receiver on 127.0.0.1 is out of bounds.
 */

let h: AutomationHarness;
let receiver: FakeWebhookReceiver;
let token: string;
let companyId: number;
const logLines: string[] = [];

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
  receiver.respond(() => ({ json: { text: 'internal answer' } }));
  h = await createAutomationHarness();
  const company = await h.factories.buildCompany();
  companyId = company.id;
  token = (await company.admin.login()).token;
  Object.assign(h.app.services.automation, { logger: pino({ level: 'info' }, { write: (line: string) => void logLines.push(line) }) });
});
afterAll(async () => {
  await h.database.db.update(whatsapps).set({ integrationId: null }).where(inTenant(whatsapps, { companyId }));
  await h.close();
  await receiver.close();
});

const port = () => new URL(receiver.url).port;

describe('saving an integration whose URL is internal', () => {
  it.each([
    ['loopback', () => `${receiver.url}/webhook`],
    ['a private address', () => 'http://10.0.0.5/webhook'],
    ['IPv6 loopback', () => `http://[::1]:${port()}/webhook`],
    ['the cloud metadata address', () => 'http://169.254.169.254/latest/meta-data/'],
    ['a name resolving to loopback', () => `http://localhost:${port()}/webhook`],
    ['an IPv4-mapped loopback', () => `http://[::ffff:127.0.0.1]:${port()}/webhook`],
  ])('%s answers 400 ERR_OUTBOUND_URL_REFUSED on create and update', async (_name, url) => {
    const created = await h.request(token, 'POST', '/queueIntegration', { type: 'webhook', name: 'Interno', urlN8N: url() });
    expect(created.statusCode).toBe(400);
    expect(created.json()).toMatchObject({ error: 'ERR_OUTBOUND_URL_REFUSED' });
    expect(created.json().fields.urlN8N[0]).toMatch(/refused/);

    const typebot = await h.request(token, 'POST', '/queueIntegration', { type: 'typebot', name: 'Bot interno', urlN8N: url(), typebotSlug: 'x' });
    expect(typebot.json()).toMatchObject({ error: 'ERR_OUTBOUND_URL_REFUSED' });

    const fine = await h.request(token, 'POST', '/queueIntegration', { type: 'n8n', name: `Fluxo ${Math.random()}`, urlN8N: 'https://n8n.invalid/webhook/1' });
    expect(fine.statusCode).toBe(201);
    const updated = await h.request(token, 'PUT', `/queueIntegration/${fine.json().id}`, { urlN8N: url() });
    expect(updated.statusCode).toBe(400);
    expect(updated.json().error).toBe('ERR_OUTBOUND_URL_REFUSED');
    const [row] = await h.database.db.select().from(queueIntegrations).where(eq(queueIntegrations.id, fine.json().id));
    expect(row?.urlN8N).toBe('https://n8n.invalid/webhook/1');
    expect(receiver.requests).toHaveLength(0);
  });

  it('a Dialogflow key whose token endpoint is internal is refused too', async () => {
    const key = { client_email: 'bot@p.iam.gserviceaccount.com', private_key: 'unused', token_uri: 'http://169.254.169.254/token' };
    const created = await h.request(token, 'POST', '/queueIntegration', {
      type: 'dialogflow',
      name: 'Dialogflow',
      projectName: 'p',
      language: 'pt-BR',
      jsonContent: JSON.stringify(key),
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().error).toBe('ERR_OUTBOUND_URL_REFUSED');
    expect(created.json().fields.jsonContent).toHaveLength(1);
  });
});

describe('calling an integration whose URL became internal', () => {
  it('is refused at connect time (name re-resolved to loopback), logged, not retried; the customer is told', async () => {
    const created = await h.request(token, 'POST', '/queueIntegration', { type: 'webhook', name: 'Rebinding', urlN8N: 'https://hooks.invalid/atende' });
    expect(created.statusCode).toBe(201);
    const integrationId: number = created.json().id;
    // What DNS rebinding amounts to: the name accepted when saved now leads to loopback.
    await h.database.db
      .update(queueIntegrations)
      .set({ urlN8N: `http://localhost:${port()}/atende` })
      .where(eq(queueIntegrations.id, integrationId));
    const whatsappId = (await h.desk.buildConnection(companyId, { integrationId })).id;
    const customer = sandboxPhone(h, token, whatsappId, '5561990001001');

    await customer.say('Oi');
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(receiver.requests).toHaveLength(0);
    expect(h.jobs.pending('automation.webhook-retry')).toHaveLength(0);
    const refusal = logLines.map((line) => JSON.parse(line) as { msg: string; integrationId?: number; reason?: string }).find((entry) => entry.msg.startsWith('outgoing call refused'));
    expect(refusal).toMatchObject({ integrationId });
    expect(refusal?.reason).toMatch(/localhost is a loopback address/);
  });
});
