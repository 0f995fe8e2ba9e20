import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tickets } from '../../platform/db/schema.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';

/** whaticket v6's "close all" of its open or pending tab (issue 32), within each role's reach. */

let t: TestContext;
let desk: ReturnType<typeof createServiceDeskFactories>;
beforeAll(async () => {
  t = await createTestContext();
  desk = createServiceDeskFactories(t.database.db);
});
afterAll(() => t.close());

const statusOf = async (ids: number[]) =>
  Object.fromEntries((await t.database.db.select({ id: tickets.id, status: tickets.status }).from(tickets).where(inArray(tickets.id, ids))).map((row) => [row.id, row.status]));

describe('POST /tickets/closeAll', () => {
  it("an agent closes its own open tickets, never another agent's; pending ones only in its reach", async () => {
    const company = await t.factories.buildCompany();
    const sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
    const support = await t.factories.buildQueue(company.id, { name: 'Suporte' });
    const ana = await t.factories.buildUser(company.id, { profile: 'user', queueIds: [sales.id] });
    const bia = await t.factories.buildUser(company.id, { profile: 'user', queueIds: [sales.id] });
    const anaOpen = await desk.buildTicket(company.id, { status: 'open', userId: ana.id, queueId: sales.id });
    const biaOpen = await desk.buildTicket(company.id, { status: 'open', userId: bia.id, queueId: sales.id });
    const salesPending = await desk.buildTicket(company.id, { status: 'pending', queueId: sales.id });
    const supportPending = await desk.buildTicket(company.id, { status: 'pending', queueId: support.id });
    const token = (await ana.login()).token;

    const open = await t.request(token, 'POST', '/tickets/closeAll', { status: 'open', selectedQueueIds: [] });
    expect(open.statusCode).toBe(200);
    expect(open.json()).toEqual({ closed: 1 });
    const pending = await t.request(token, 'POST', '/tickets/closeAll', { status: 'pending', selectedQueueIds: [sales.id, support.id] });
    expect(pending.json()).toEqual({ closed: 1 });
    expect(await statusOf([anaOpen.id, biaOpen.id, salesPending.id, supportPending.id])).toEqual({
      [anaOpen.id]: 'closed',
      [biaOpen.id]: 'open',
      [salesPending.id]: 'closed',
      [supportPending.id]: 'pending',
    });
    const [closedBy] = await t.database.db.select({ userId: tickets.userId, unread: tickets.unreadMessages }).from(tickets).where(eq(tickets.id, salesPending.id));
    expect(closedBy).toEqual({ userId: ana.id, unread: 0 });
  });

  it("an admin closes the company's tickets of that status (in the queues named), never another company's; bad input is 400", async () => {
    const company = await t.factories.buildCompany();
    const other = await t.factories.buildCompany();
    const sales = await t.factories.buildQueue(company.id, { name: 'Vendas' });
    const agent = await t.factories.buildUser(company.id, { profile: 'user' });
    const inQueue = await desk.buildTicket(company.id, { status: 'open', userId: agent.id, queueId: sales.id });
    const noQueue = await desk.buildTicket(company.id, { status: 'open', userId: agent.id });
    const theirs = await desk.buildTicket(other.id, { status: 'open' });
    const token = (await company.admin.login()).token;
    expect((await t.request(token, 'POST', '/tickets/closeAll', { status: 'open', selectedQueueIds: [sales.id] })).json()).toEqual({ closed: 1 });
    expect(await statusOf([inQueue.id, noQueue.id])).toEqual({ [inQueue.id]: 'closed', [noQueue.id]: 'open' });
    expect((await t.request(token, 'POST', '/tickets/closeAll', { status: 'open' })).json()).toEqual({ closed: 1 });
    expect(await statusOf([noQueue.id, theirs.id])).toEqual({ [noQueue.id]: 'closed', [theirs.id]: 'open' });

    const bad = await t.request(token, 'POST', '/tickets/closeAll', { status: 'closed', selectedQueueIds: ['x'] });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().fields).sort()).toEqual(['selectedQueueIds.0', 'status']);
  });
});
