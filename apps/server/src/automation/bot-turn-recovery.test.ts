import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { storeBatch, type BatchItem } from '../inbound/ingest-batch.js';
import type { InboundTurn } from '../inbound/inbound-turn.js';
import { recoverPendingMessages } from '../modules/messages/outgoing-messages.js';
import { botTurns, messages, tickets, whatsapps } from '../platform/db/schema.js';
import { createAutomationHarness, linkQueues, sandboxPhone, type AutomationHarness } from '../test/automation-harness.js';
import { startFakeWebhookReceiver, type FakeWebhookReceiver } from '../test/fake-webhook-receiver.js';
import { ALLOW_LOOPBACK_PEERS } from '../test/test-app.js';
import { recoverBotTurns, type BotTurnRecoveryOptions } from './bot-turn-recovery.js';
import { decideInboundAutomation, runInboundAutomation } from './inbound-automation.js';

/**
 * The bot's answer survives a crash at every point between the customer's message
 * and the answer reaching the phone (issue 29). A "crash" here is the live path
 * stopped where a killed process would stop: what it committed stays, what it
 * held in memory is gone. The fault suite does the same with a real SIGKILL.
 */
let h: AutomationHarness;
let receiver: FakeWebhookReceiver;
let token: string;
let companyId: number;
let menuConnection: number;
let hookConnection: number;
let seq = 0;

const NOW: BotTurnRecoveryOptions = { decideAfterMs: 0, followUpAfterMs: 0, maxAttempts: 3 };
const GREETING = 'Olá! Escolha uma opção.';

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver();
  h = await createAutomationHarness({ env: { ...ALLOW_LOOPBACK_PEERS } });
  const company = await h.factories.buildCompany();
  companyId = company.id;
  token = (await company.admin.login()).token;
  menuConnection = (await h.desk.buildConnection(companyId, { greetingMessage: GREETING })).id;
  const queueIds: number[] = [];
  for (const name of ['Vendas', 'Suporte']) queueIds.push((await h.request(token, 'POST', '/queue', { name, color: `#00000${queueIds.length}` })).json<{ id: number }>().id);
  await linkQueues(h.database, companyId, menuConnection, queueIds);
  const hook = await h.request(token, 'POST', '/queueIntegration', { type: 'webhook', name: 'Webhook', urlN8N: `${receiver.url}/hook` });
  hookConnection = (await h.desk.buildConnection(companyId, { integrationId: hook.json<{ id: number }>().id })).id;
});
afterAll(async () => {
  await h.database.db.update(whatsapps).set({ integrationId: null }).where(eq(whatsapps.id, hookConnection));
  await h.close();
  await receiver.close();
});

/** A customer message stored as the ingest stores it, by a process that dies right after the commit. */
async function storedThenKilled(whatsappId: number, body: string) {
  const number = `5531970000${String(++seq).padStart(3, '0')}`;
  const item: BatchItem = { input: { channel: 'sandbox', companyId, whatsappId, from: number, externalId: `turn-${seq}`, body }, number, preview: body };
  const [outcome] = await storeBatch(h.database.sql, [item]);
  if (outcome?.kind !== 'stored') throw new Error(`not stored: ${JSON.stringify(outcome)}`);
  expect(outcome.turnDue).toBe(true);
  const turn: InboundTurn = { companyId, ticketId: outcome.ticketId, messageId: outcome.messageId, body, mediaType: null, mediaPath: null, mediaName: null };
  return { turn, phone: sandboxPhone(h, token, whatsappId, number) };
}

const openTurns = async (messageId: number) => h.database.db.select().from(botTurns).where(eq(botTurns.messageId, messageId));
/** The greeting with the queues' menu, one message. */
const menu = () => [expect.stringMatching(new RegExp(`^${GREETING}[\\s\\S]*Vendas`))];

describe('a bot turn across a crash', () => {
  it('is written with the message; never decided, the sweep decides it once', async () => {
    const { turn, phone } = await storedThenKilled(menuConnection, 'Oi');
    expect(await openTurns(turn.messageId)).toHaveLength(1);
    expect(await phone.inbox()).toEqual([]);

    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ decided: 1 });
    expect(await phone.received()).toEqual(menu());
    expect(await openTurns(turn.messageId)).toEqual([]);
    // Done once: neither a second sweep nor a late live run answers again.
    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ decided: 0 });
    await runInboundAutomation(h.app.services, turn);
    expect(await phone.received()).toEqual([]);
  });

  it('decided but not sent: the replies are stored pending with the decision, and the pending recovery sends them once', async () => {
    const { turn, phone } = await storedThenKilled(menuConnection, 'Oi');
    // The decision commits; the process dies before the sends it returned run.
    const [send] = await decideInboundAutomation(h.app.services, [turn]);
    expect(send).toBeDefined();
    expect(await openTurns(turn.messageId)).toEqual([]);
    const pending = await h.database.db.select({ body: messages.body, sendStatus: messages.sendStatus }).from(messages).where(eq(messages.ticketId, turn.ticketId));
    expect(pending.filter((row) => row.sendStatus === 'pending')).toHaveLength(1);
    expect(await phone.inbox()).toEqual([]);

    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ decided: 0 });
    expect(await recoverPendingMessages(h.app.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 1, failed: 0 });
    expect(await phone.received()).toEqual(menu());
    // The dead process's sends, had they run after all, find nothing pending.
    await send?.();
    expect(await recoverPendingMessages(h.app.services, { staleMs: 0, giveUpMs: 60_000, maxAttempts: 3 })).toEqual({ resent: 0, failed: 0 });
    expect(await phone.received()).toEqual([]);
  });

  it('run by the live path and a sweep at once, answers once', async () => {
    const { turn, phone } = await storedThenKilled(menuConnection, 'Oi');
    await Promise.all([runInboundAutomation(h.app.services, turn), recoverBotTurns(h.app.services, NOW), runInboundAutomation(h.app.services, turn)]);
    expect(await phone.received()).toEqual(menu());
  });

  it('a follow-up (an integration) left by a stopped node is run by the sweep, and its answer stored once', async () => {
    receiver.respond(() => ({ json: { text: 'Resposta do fluxo' } }));
    const { turn, phone } = await storedThenKilled(hookConnection, 'Quero um orçamento');
    // Decided (the integration takes the conversation); the process dies before calling it.
    await decideInboundAutomation(h.app.services, [turn]);
    const [left] = await openTurns(turn.messageId);
    expect(left?.followUp).toMatchObject({ kind: 'integration' });
    const calls = receiver.requests.length;

    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ followedUp: 1 });
    expect(receiver.requests.length).toBe(calls + 1);
    expect(await phone.received()).toEqual(['Resposta do fluxo']);
    expect(await openTurns(turn.messageId)).toEqual([]);
    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ followedUp: 0 });
    expect(await phone.received()).toEqual([]);
  });

  it('a turn that keeps failing is given up after its attempts, and the ticket stays with the agents', async () => {
    const { turn, phone } = await storedThenKilled(menuConnection, 'Oi');
    await h.database.db.update(botTurns).set({ attempts: 3 }).where(eq(botTurns.messageId, turn.messageId));
    expect(await recoverBotTurns(h.app.services, NOW)).toMatchObject({ givenUp: 1, decided: 0 });
    expect(await openTurns(turn.messageId)).toEqual([]);
    expect(await phone.inbox()).toEqual([]);
  });

  it('is not written for a message the bot has nothing to do with (a ticket with an agent, a group, our own)', async () => {
    const number = `5531970000${String(++seq).padStart(3, '0')}`;
    const base = { channel: 'sandbox' as const, companyId, whatsappId: menuConnection, from: number, body: 'Oi' };
    const [own] = await storeBatch(h.database.sql, [{ input: { ...base, externalId: `own-${seq}`, fromMe: true }, number, preview: 'Oi' }]);
    expect(own).toMatchObject({ kind: 'stored', turnDue: false });
    const group = `1203630000${seq}`;
    const [grouped] = await storeBatch(h.database.sql, [{ input: { ...base, from: group, externalId: `group-${seq}`, isGroup: true }, number: group, preview: 'Oi' }]);
    expect(grouped).toMatchObject({ kind: 'stored', turnDue: false });
    // The own message opened a ticket; an agent takes it: the customer's next message is the agent's.
    if (own?.kind !== 'stored') throw new Error('not stored');
    await h.database.db.update(tickets).set({ status: 'open' }).where(eq(tickets.id, own.ticketId));
    const [answered] = await storeBatch(h.database.sql, [{ input: { ...base, externalId: `agent-${seq}` }, number, preview: 'Oi' }]);
    expect(answered).toMatchObject({ kind: 'stored', ticketId: own.ticketId, turnDue: false });
    expect(await h.database.db.select().from(botTurns).where(eq(botTurns.ticketId, own.ticketId))).toEqual([]);
  });
});
