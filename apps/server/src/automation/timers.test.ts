import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets, webhooks } from '../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../test/automation-harness.js';
import type { BuiltCompany } from '../test/factories.js';
import { SWEEP_INTERVAL_SECONDS } from './automation-jobs.js';

let h: AutomationHarness;
let company: BuiltCompany;
let token: string;
let seq = 0;

beforeAll(async () => {
  h = await createAutomationHarness();
  company = await h.factories.buildCompany();
  token = (await company.admin.login()).token;
});
afterAll(() => h.close());

const minutes = (base: Date, n: number) => new Date(base.getTime() + n * 60_000);
// One simulated timeline for the file: the job runner only moves forward, as real time does.
const T0 = new Date();
const phoneOf = (whatsappId: number) => sandboxPhone(h, token, whatsappId, `5541990000${String(++seq).padStart(3, '0')}`);

async function ticket(id: number | null) {
  const [row] = await h.database.db.select().from(tickets).where(eq(tickets.id, id ?? 0));
  if (!row) throw new Error('ticket not found');
  return row;
}

/** Runs the durable jobs due at `at`, with the automation's clock there too. */
async function runJobsAt(at: Date) {
  h.setNow(at);
  try {
    return await h.jobs.runDue(at);
  } finally {
    h.setNow(null);
  }
}

describe('timers as durable jobs', () => {
  it('the timers job is queued at start and queues its next run each time it runs', async () => {
    const queued = h.jobs.pending('automation.timers');
    expect(queued).toHaveLength(1);
    const next = minutes(T0, 2);
    // Other durable chains (the outbound engine's sweep) run too: the timers run is the one that was queued.
    expect(await runJobsAt(next)).toBeGreaterThanOrEqual(1);
    const again = h.jobs.pending('automation.timers');
    expect(again[0]).not.toBe(queued[0]);
    expect(again).toHaveLength(1);
    expect(again[0]?.runAt.getTime()).toBe(next.getTime() + SWEEP_INTERVAL_SECONDS * 1000);
  });

  it('expiresTicket: closes a ticket the customer left unanswered for that long, with the inactivity message', async () => {
    const connection = await h.desk.buildConnection(company.id, { expiresTicket: 30, expiresInactiveMessage: 'Encerramos por inatividade, {primeiroNome}. Protocolo {{protocolo}}.' });
    const quiet = phoneOf(connection.id);
    const { ticketId } = await quiet.say('Oi', { name: 'Rita Alves' });
    await h.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    await h.request(token, 'POST', `/messages/${ticketId}`, { body: 'Olá Rita, em que posso ajudar?' });
    await quiet.received();
    // A customer still waiting for an answer is never closed on.
    const waiting = phoneOf(connection.id);
    const { ticketId: waitingId } = await waiting.say('Alguém?');
    await h.request(token, 'PUT', `/tickets/${waitingId}`, { status: 'open' });

    await runJobsAt(minutes(T0, 20));
    expect(await ticket(ticketId)).toMatchObject({ status: 'open' });

    const hook = await h.desk.buildWebhook(company.id, ['ticket.updated']);
    await runJobsAt(minutes(T0, 31));
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed', unreadMessages: 0 });
    // The close is a ticket.updated webhook event (issue 34), written with it.
    expect((await h.desk.webhookOutbox(hook.id)).filter((row) => row.orderingKey === `ticket:${ticketId}`)).toEqual([
      expect.objectContaining({ event: 'ticket.updated', data: expect.objectContaining({ id: ticketId, status: 'closed', unreadMessages: 0 }) }),
    ]);
    await h.database.db.delete(webhooks).where(eq(webhooks.id, hook.id));
    expect(await quiet.received()).toEqual([`Encerramos por inatividade, Rita. Protocolo ${ticketId}.`]);
    expect(await ticket(waitingId)).toMatchObject({ status: 'open' });
  });

  it('timeToTransfer: a pending ticket still without a queue moves to transferQueueId after that long (60 min)', async () => {
    const target = (await h.request(token, 'POST', '/queue', { name: 'Triagem', color: '#123456' })).json<{ id: number }>();
    const connection = await h.desk.buildConnection(company.id, { timeToTransfer: 60, transferQueueId: target.id });
    const customer = phoneOf(connection.id);
    const { ticketId } = await customer.say('Oi');
    await runJobsAt(minutes(T0, 40));
    expect(await ticket(ticketId)).toMatchObject({ queueId: null, status: 'pending' });
    const hook = await h.desk.buildWebhook(company.id, ['ticket.updated']);
    await runJobsAt(minutes(T0, 62));
    expect(await ticket(ticketId)).toMatchObject({ queueId: target.id, status: 'pending', chatbot: false });
    expect((await h.desk.webhookOutbox(hook.id)).filter((row) => row.orderingKey === `ticket:${ticketId}`)).toEqual([
      expect.objectContaining({ event: 'ticket.updated', data: expect.objectContaining({ id: ticketId, queueId: target.id, queue: expect.objectContaining({ name: 'Triagem' }) }) }),
    ]);
    await h.database.db.delete(webhooks).where(eq(webhooks.id, hook.id));
  });

  // What this proves: the app keeps no timer state in memory (a rebuilt app on the same database and job
  // store carries on). The job store here is the harness's in-memory queue; the real process restart with
  // pg-boss on PostgreSQL is proven by faults/timers-restart.fault.ts (npm run test:faults).
  it('a rebuilt app on the same database and job store runs the queued timers run (no timer state in app memory)', async () => {
    const connection = await h.desk.buildConnection(company.id, { expiresTicket: 90 });
    const customer = phoneOf(connection.id);
    const { ticketId } = await customer.say('Oi');
    await h.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' });
    await h.request(token, 'POST', `/messages/${ticketId}`, { body: 'Posso ajudar?' });
    await runJobsAt(minutes(T0, 80));
    expect(await ticket(ticketId)).toMatchObject({ status: 'open' });
    await h.restart();
    expect(h.jobs.pending('automation.timers')).toHaveLength(1);
    await runJobsAt(minutes(T0, 95));
    expect(await ticket(ticketId)).toMatchObject({ status: 'closed' });
  });
});
