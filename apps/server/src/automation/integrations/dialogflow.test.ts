import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import { startFakeDialogflow, type FakeDialogflow } from '../../test/fake-dialogflow.js';
import { ALLOW_LOOPBACK_PEERS } from '../../test/test-app.js';
import { automationTexts } from '../automation-texts.js';

/** The automation's own texts of a company in Portuguese (the default language). */
const AUTOMATION_TEXTS = automationTexts({ language: 'pt' });

let h: AutomationHarness;
let dialogflow: FakeDialogflow;
let token: string;
let integrationId: number;
let whatsappId: number;
let seq = 0;

beforeAll(async () => {
  dialogflow = await startFakeDialogflow((query) => {
    if (query.event === 'WELCOME') return { fulfillmentText: 'Olá! Bem-vindo.', intent: 'Default Welcome Intent' };
    if (query.text?.includes('horário')) return { fulfillmentText: 'Atendemos das 8h às 18h.', intent: 'horario' };
    if (query.text?.includes('atendente')) return { fulfillmentText: 'Vou chamar um atendente.', intent: 'handover.humano' };
    return { fulfillmentText: 'Desculpe, não entendi.', intent: 'Default Fallback Intent' };
  });
  h = await createAutomationHarness({ env: { DIALOGFLOW_BASE_URL: dialogflow.url, ...ALLOW_LOOPBACK_PEERS } });
  const company = await h.factories.buildCompany();
  token = (await company.admin.login()).token;
  const created = await h.request(token, 'POST', '/queueIntegration', {
    type: 'dialogflow',
    name: 'Dialogflow FAQ',
    projectName: dialogflow.projectId,
    jsonContent: dialogflow.serviceAccountJson(),
    language: 'pt-BR',
  });
  expect(created.statusCode).toBe(201);
  integrationId = created.json().id;
  whatsappId = (await h.desk.buildConnection(company.id, { integrationId })).id;
});
afterAll(async () => {
  await h.close();
  await dialogflow.close();
});

const phone = () => sandboxPhone(h, token, whatsappId, `5571990000${String(++seq).padStart(3, '0')}`);

async function ticket(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

describe('dialogflow test session', () => {
  it('detects the welcome intent with the given project, key and language', async () => {
    const response = await h.request(token, 'POST', '/queueIntegration/testSession', {
      projectName: dialogflow.projectId,
      jsonContent: dialogflow.serviceAccountJson(),
      language: 'en',
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ message: 'ok', intent: 'Default Welcome Intent', reply: 'Olá! Bem-vindo.' });
    expect(dialogflow.queries.at(-1)).toMatchObject({ event: 'WELCOME', languageCode: 'en' });
  });

  it('an edit dialog tests the stored key by sending the masked value back', async () => {
    const shown = (await h.request(token, 'GET', `/queueIntegration/${integrationId}`)).json();
    expect(shown.jsonContent).toContain('••••');
    expect(shown.jsonContent).not.toContain('PRIVATE KEY');
    const response = await h.request(token, 'POST', '/queueIntegration/testSession', {
      id: integrationId,
      projectName: dialogflow.projectId,
      jsonContent: shown.jsonContent,
      language: 'pt-BR',
    });
    expect(response.statusCode).toBe(200);
  });

  it('a wrong project or key fails with ERR_INTEGRATION_TEST_FAILED', async () => {
    const wrongProject = await h.request(token, 'POST', '/queueIntegration/testSession', {
      projectName: 'someone-else',
      jsonContent: dialogflow.serviceAccountJson(),
    });
    expect(wrongProject.statusCode).toBe(400);
    expect(wrongProject.json().error).toBe('ERR_INTEGRATION_TEST_FAILED');
    const notAKey = await h.request(token, 'POST', '/queueIntegration/testSession', { projectName: dialogflow.projectId, jsonContent: '{"type":"x"}' });
    expect(notAKey.json().error).toBe('ERR_INTEGRATION_TEST_FAILED');
  });
});

describe('dialogflow on a connection', () => {
  it('sends the fulfilment text back; a handover intent stops the bot', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Qual o horário de vocês?');
    expect(await customer.received()).toEqual(['Atendemos das 8h às 18h.']);
    const row = await ticket(ticketId);
    expect(row).toMatchObject({ useIntegration: true, chatbot: true });
    expect(dialogflow.queries.at(-1)).toMatchObject({ session: row.uuid, text: 'Qual o horário de vocês?', languageCode: 'pt-BR' });
    await customer.say('Quero falar com um atendente');
    expect(await customer.received()).toEqual(['Vou chamar um atendente.']);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: false, chatbot: false, status: 'pending' });
    await customer.say('Oi?');
    expect(await customer.received()).toEqual([]);
  });

  it('a failing Dialogflow answers the customer and hands the ticket to the agents', async () => {
    const customer = phone();
    const { ticketId } = await customer.say('Qual o horário?');
    await customer.received();
    dialogflow.failNext({ status: 500, json: { error: { code: 500, message: 'Internal error', status: 'INTERNAL' } } });
    await customer.say('E no sábado?');
    expect(await customer.received()).toEqual([AUTOMATION_TEXTS.botUnavailable]);
    expect(await ticket(ticketId)).toMatchObject({ useIntegration: false, chatbot: false });
  });
});
