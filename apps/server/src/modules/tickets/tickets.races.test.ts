import { asc, eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ticketCycles, tickets, ticketTransfers } from '../../platform/db/schema.js';
import { createAutomationHarness, sandboxPhone, type AutomationHarness } from '../../test/automation-harness.js';
import type { BuiltCompany } from '../../test/factories.js';
import { usePostgres } from '../../test/test-database.js';

/**
 * Ticket transitions are compare-and-set (ARCHITECTURE.md §3 rule 16): of several
 * agents acting on one ticket at once exactly one wins, the others get 409 naming the
 * winner, and the automation (greeting, transfer notice, rating request) runs once.
 * On PostgreSQL the requests really overlap (`race` holds the ticket's row until every
 * one of them waits on it); on PGlite (one connection) the transactions run one after
 * the other, so the later ones see the winner's committed state: both must hold.
 */

let h: AutomationHarness;
let company: BuiltCompany;
let adminToken: string;
let whatsappId: number;
let sales: { id: number; name: string };
let support: { id: number; name: string };
const agents: { id: number; name: string; token: string }[] = [];
let seq = 0;

const AGENT_NAMES = ['Ana Souza', 'Bruno Lima', 'Carla Dias', 'Davi Rocha', 'Elisa Prado'];
const GREETING = 'e vou continuar o seu atendimento.';

beforeAll(async () => {
  h = await createAutomationHarness();
  company = await h.factories.buildCompany();
  adminToken = (await company.admin.login()).token;
  for (const [key, value] of Object.entries({ sendGreetingAccepted: 'enabled', sendMsgTransfTicket: 'enabled', userRating: 'enabled' })) {
    expect((await h.request(adminToken, 'PUT', `/settings/${key}`, { value })).statusCode).toBe(200);
  }
  whatsappId = (await h.desk.buildConnection(company.id)).id;
  sales = await h.factories.buildQueue(company.id, { name: 'Vendas' });
  support = await h.factories.buildQueue(company.id, { name: 'Suporte' });
  for (const name of AGENT_NAMES) {
    const user = await h.factories.buildUser(company.id, { name, queueIds: [sales.id, support.id] });
    agents.push({ id: user.id, name, token: (await user.login()).token });
  }
});
afterAll(() => h.close());

/** A customer writes: a new pending ticket (in `queueId` when given). */
async function pendingTicket(queueId: number | null = null) {
  const phone = sandboxPhone(h, adminToken, whatsappId, `5521970000${String(++seq).padStart(3, '0')}`);
  const { ticketId } = await phone.say('Oi, preciso de ajuda', { name: 'Rita Alves' });
  if (!ticketId) throw new Error('no ticket');
  if (queueId !== null) await h.database.db.update(tickets).set({ queueId }).where(eq(tickets.id, ticketId));
  await phone.received();
  return { phone, ticketId };
}

async function row(ticketId: number) {
  const [found] = await h.database.db.select().from(tickets).where(eq(tickets.id, ticketId));
  if (!found) throw new Error('ticket not found');
  return found;
}

const put = (token: string, ticketId: number, body: object) => h.request(token, 'PUT', `/tickets/${ticketId}`, body);

/**
 * Sends the requests at once. On PostgreSQL a second connection holds the ticket's row
 * lock until all of them wait on it (having read the ticket, or to read it), then lets
 * them go together: whatever the scheduling, they overlap.
 */
async function race(ticketId: number, requests: (() => Promise<LightMyRequestResponse>)[]): Promise<LightMyRequestResponse[]> {
  if (!usePostgres) return Promise.all(requests.map((request) => request()));
  const holder = new pg.Client({ connectionString: h.database.url });
  await holder.connect();
  try {
    await holder.query('begin');
    await holder.query('select id from tickets where id = $1 for update', [ticketId]);
    const answers = Promise.all(requests.map((request) => request()));
    // Bounded so that a request that never waits (it did not lock) lets the others go too.
    const giveUpAt = Date.now() + 10_000;
    for (let waiting = 0; waiting < requests.length && Date.now() < giveUpAt; ) {
      await new Promise((resolve) => setTimeout(resolve, 20));
      // Inside a transaction the statistics views keep their first snapshot unless told.
      await holder.query('select pg_stat_clear_snapshot()');
      const { rows } = await holder.query<{ n: string }>(
        `select count(*) as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock' and pid <> pg_backend_pid()`,
      );
      waiting = Number(rows[0]?.n ?? 0);
    }
    await holder.query('commit');
    return await answers;
  } finally {
    await holder.end();
  }
}

/** Exactly one 200; the others are 409 with `code`. Answers the winner's ticket and the losers' bodies. */
function oneWinner(responses: LightMyRequestResponse[], codes: string[]) {
  const statuses = responses.map((response) => response.statusCode).sort();
  expect(statuses).toEqual([200, ...Array<number>(responses.length - 1).fill(409)]);
  const winner = responses.find((response) => response.statusCode === 200)!.json<{ id: number; status: string; userId: number | null; user: { name: string } | null }>();
  const losers = responses
    .filter((response) => response.statusCode === 409)
    .map((response) => response.json<{ error: string; userName: string | null; ticket: { id: number; status: string; userId: number | null } }>());
  for (const loser of losers) {
    expect(codes).toContain(loser.error);
    // The loser is told the ticket as the winner left it.
    expect(loser.ticket).toMatchObject({ id: winner.id, status: winner.status, userId: winner.userId });
  }
  return { winner, losers };
}

/** The web's body for an action on a ticket it shows as `seen`. */
const seenAs = (seen: { status: string; userId: number | null; queueId: number | null }) => ({ expected: seen });

describe('accept racing accept', () => {
  it.each([
    ['a spec client', (agent: { id: number }) => ({ status: 'open', userId: agent.id })],
    ['the web app', (agent: { id: number }) => ({ status: 'open', userId: agent.id, queueId: null, ...seenAs({ status: 'pending', userId: null, queueId: null }) })],
  ])('%s: of N agents accepting one pending ticket exactly one wins; the others get 409 with the winner’s name', async (_client, body) => {
    const { phone, ticketId } = await pendingTicket();
    const responses = await race(
      ticketId,
      agents.map((agent) => () => put(agent.token, ticketId, body(agent))),
    );

    const { winner, losers } = oneWinner(responses, ['ERR_TICKET_ALREADY_ACCEPTED']);
    const winnerAgent = agents.find((agent) => agent.id === winner.userId)!;
    expect(winner).toMatchObject({ status: 'open', user: { name: winnerAgent.name } });
    expect(losers.map((loser) => loser.userName)).toEqual(Array<string>(agents.length - 1).fill(winnerAgent.name));
    expect(await row(ticketId)).toMatchObject({ status: 'open', userId: winnerAgent.id });

    // One greeting, from the winner.
    expect(await phone.received()).toEqual([expect.stringContaining(`Meu nome é *${winnerAgent.name}* ${GREETING}`)]);
    // The dashboard counts one accept by the winner, no transfer between the racers.
    const cycles = await h.database.db.select().from(ticketCycles).where(eq(ticketCycles.ticketId, ticketId));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]).toMatchObject({ userId: winnerAgent.id, transfers: 0, startedAt: expect.any(Date) });
    expect(await h.database.db.select().from(ticketTransfers).where(eq(ticketTransfers.cycleId, cycles[0]!.id))).toEqual([]);
  });

  it('the same agent accepting its ticket again (a double click) gets 200 and nothing changes', async () => {
    const { phone, ticketId } = await pendingTicket();
    const [ana] = agents;
    const accept = { status: 'open', userId: ana!.id, ...seenAs({ status: 'pending', userId: null, queueId: null }) };
    const both = await race(ticketId, [() => put(ana!.token, ticketId, accept), () => put(ana!.token, ticketId, accept)]);
    expect(both.map((response) => response.statusCode)).toEqual([200, 200]);
    const accepted = await row(ticketId);
    expect(accepted).toMatchObject({ status: 'open', userId: ana!.id });

    const again = await put(ana!.token, ticketId, accept);
    expect(again.statusCode).toBe(200);
    expect(again.json()).toMatchObject({ status: 'open', userId: ana!.id });
    expect((await row(ticketId)).updatedAt).toEqual(accepted.updatedAt);
    expect(await phone.received()).toHaveLength(1);
  });
});

describe('close racing close', () => {
  it('one close wins; the other gets 409 ERR_TICKET_ALREADY_CLOSED with the closer’s name; one rating request', async () => {
    const { phone, ticketId } = await pendingTicket();
    const [ana] = agents;
    expect((await put(ana!.token, ticketId, { status: 'open', userId: ana!.id })).statusCode).toBe(200);
    await phone.received();

    const seen = seenAs({ status: 'open', userId: ana!.id, queueId: null });
    const close = (userId: number) => ({ status: 'closed', userId, queueId: null, useIntegration: false, promptId: null, integrationId: null });
    const responses = await race(ticketId, [() => put(ana!.token, ticketId, { ...close(ana!.id), ...seen }), () => put(adminToken, ticketId, close(company.admin.id))]);
    const { winner, losers } = oneWinner(responses, ['ERR_TICKET_ALREADY_CLOSED']);
    expect(winner.status).toBe('closed');
    expect(losers[0]!.userName).toBe(winner.user?.name);

    expect(await phone.received()).toEqual([expect.stringContaining('Responda com um número')]);
    const cycles = await h.database.db.select().from(ticketCycles).where(eq(ticketCycles.ticketId, ticketId));
    expect(cycles).toHaveLength(1);
    expect(cycles[0]!.finishedAt).toEqual(expect.any(Date));

    // Closing it again by the one who closed it is no error and asks for no second rating.
    expect((await put(winner.userId === ana!.id ? ana!.token : adminToken, ticketId, { status: 'closed' })).statusCode).toBe(200);
    expect(await phone.received()).toEqual([]);
  });
});

describe('transfer racing accept', () => {
  it.each([
    ['to a queue and an agent', () => ({ queueId: support.id, userId: agents[4]!.id, status: 'open' })],
    ['to a queue, nobody', () => ({ queueId: support.id, userId: null, status: 'pending' })],
  ])('a transfer %s and an accept of the same pending ticket: one wins, one 409; one automatic message', async (_kind, transfer) => {
    const { phone, ticketId } = await pendingTicket(sales.id);
    const [ana] = agents;
    const seen = seenAs({ status: 'pending', userId: null, queueId: sales.id });
    const responses = await race(ticketId, [
      () => put(ana!.token, ticketId, { status: 'open', userId: ana!.id, queueId: sales.id, ...seen }),
      () => put(adminToken, ticketId, { ...transfer(), whatsappId, ...seen }),
    ]);
    const { winner, losers } = oneWinner(responses, ['ERR_TICKET_ALREADY_ACCEPTED', 'ERR_TICKET_CHANGED']);
    expect(losers[0]!.userName).toBe(winner.user?.name ?? null);
    const accepted = winner.userId === ana!.id;
    expect(await row(ticketId)).toMatchObject(accepted ? { status: 'open', userId: ana!.id, queueId: sales.id } : { queueId: support.id });
    // The greeting or the transfer notice, never both.
    const received = await phone.received();
    expect(received).toHaveLength(1);
    expect(received[0]).toContain(accepted ? GREETING : 'Você foi transferido');
  });

  it('a transfer of a ticket whose agent changed meanwhile is refused (409 ERR_TICKET_CHANGED), one whose agent did not goes through', async () => {
    const { ticketId } = await pendingTicket(sales.id);
    const [ana, bruno] = agents;
    expect((await put(ana!.token, ticketId, { status: 'open', userId: ana!.id })).statusCode).toBe(200);
    const stale = await put(adminToken, ticketId, { queueId: support.id, userId: null, status: 'pending', ...seenAs({ status: 'pending', userId: null, queueId: sales.id }) });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({ error: 'ERR_TICKET_CHANGED', userName: ana!.name, ticket: { status: 'open', userId: ana!.id } });
    expect(await row(ticketId)).toMatchObject({ status: 'open', userId: ana!.id, queueId: sales.id });

    const current = await put(adminToken, ticketId, { queueId: support.id, userId: bruno!.id, status: 'open', ...seenAs({ status: 'open', userId: ana!.id, queueId: sales.id }) });
    expect(current.statusCode).toBe(200);
    expect(current.json()).toMatchObject({ status: 'open', userId: bruno!.id, queueId: support.id });
  });

  it('taking another agent’s open ticket on purpose (a transfer to oneself, having seen that agent) is no conflict', async () => {
    const { ticketId } = await pendingTicket(sales.id);
    const [ana] = agents;
    expect((await put(ana!.token, ticketId, { status: 'open', userId: ana!.id })).statusCode).toBe(200);
    const takeover = await put(adminToken, ticketId, { status: 'open', userId: company.admin.id, queueId: sales.id, ...seenAs({ status: 'open', userId: ana!.id, queueId: sales.id }) });
    expect(takeover.statusCode).toBe(200);
    expect(takeover.json()).toMatchObject({ status: 'open', userId: company.admin.id });
  });
});

describe('reopen racing reopen', () => {
  it('of agents reopening one closed ticket exactly one wins; the others get 409 with its name; one new cycle', async () => {
    const { ticketId } = await pendingTicket();
    const [ana] = agents;
    expect((await put(ana!.token, ticketId, { status: 'open', userId: ana!.id })).statusCode).toBe(200);
    expect((await put(ana!.token, ticketId, { status: 'closed' })).statusCode).toBe(200);

    const reopeners = agents.slice(1);
    const responses = await race(
      ticketId,
      reopeners.map((agent) => () => put(agent.token, ticketId, { status: 'open', userId: agent.id, queueId: null, ...seenAs({ status: 'closed', userId: ana!.id, queueId: null }) })),
    );
    const { winner, losers } = oneWinner(responses, ['ERR_TICKET_ALREADY_ACCEPTED']);
    const winnerAgent = reopeners.find((agent) => agent.id === winner.userId)!;
    expect(losers.map((loser) => loser.userName)).toEqual(Array<string>(reopeners.length - 1).fill(winnerAgent.name));
    const cycles = await h.database.db.select().from(ticketCycles).where(eq(ticketCycles.ticketId, ticketId)).orderBy(asc(ticketCycles.id));
    expect(cycles).toHaveLength(2);
    expect(cycles[1]).toMatchObject({ userId: winnerAgent.id, transfers: 0 });
  });
});

it(`runs on ${usePostgres ? 'PostgreSQL' : 'PGlite'}`, () => {
  expect(h.database.kind).toBe(usePostgres ? 'postgres' : 'pglite');
});
