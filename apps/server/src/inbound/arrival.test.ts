import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prompts, queueIntegrations } from '../platform/db/schema.js';
import { linkQueues } from '../test/automation-harness.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { arrivalQueue } from './arrival.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
});
afterAll(() => t.close());

describe('arrivalQueue (where a new conversation waits from its first moment)', () => {
  it("is the connection's only queue, unless the connection's own integration or prompt takes new conversations first", async () => {
    const company = await t.factories.buildCompany();
    const scope = { companyId: company.id };
    const [a, b] = [await t.factories.buildQueue(company.id), await t.factories.buildQueue(company.id)];
    const [integration] = await t.database.db
      .insert(queueIntegrations)
      .values({ companyId: company.id, type: 'webhook', name: 'Bot' })
      .returning({ id: queueIntegrations.id });
    const [prompt] = await t.database.db
      .insert(prompts)
      .values({ companyId: company.id, name: 'IA', prompt: 'Atenda.', apiKeySealed: 'sealed' })
      .returning({ id: prompts.id });

    const connection = async (queueIds: number[], extra: { integrationId?: number; promptId?: number } = {}) => {
      const row = await sd.buildConnection(company.id, extra);
      await linkQueues(t.database, company.id, row.id, queueIds);
      return row.id;
    };
    expect(await arrivalQueue(t.database.db, scope, await connection([a!.id]))).toBe(a!.id);
    expect(await arrivalQueue(t.database.db, scope, await connection([]))).toBeNull();
    // Several queues: the customer chooses from the menu.
    expect(await arrivalQueue(t.database.db, scope, await connection([a!.id, b!.id]))).toBeNull();
    expect(await arrivalQueue(t.database.db, scope, await connection([a!.id], { integrationId: integration!.id }))).toBeNull();
    expect(await arrivalQueue(t.database.db, scope, await connection([a!.id], { promptId: prompt!.id }))).toBeNull();
    // Another company's connection is not found.
    const other = await t.factories.buildCompany();
    expect(await arrivalQueue(t.database.db, { companyId: other.id }, await connection([a!.id]))).toBeNull();

    // A plan without integrations or prompts: the bot ignores them (inbound-automation.ts), so the queue applies.
    const bare = await t.factories.buildCompany({ plan: { useIntegrations: false, useOpenAi: false } });
    const [bareQueue] = [await t.factories.buildQueue(bare.id)];
    const [bareIntegration] = await t.database.db
      .insert(queueIntegrations)
      .values({ companyId: bare.id, type: 'webhook', name: 'Bot' })
      .returning({ id: queueIntegrations.id });
    const bareConnection = await sd.buildConnection(bare.id, { integrationId: bareIntegration!.id });
    await linkQueues(t.database, bare.id, bareConnection.id, [bareQueue!.id]);
    expect(await arrivalQueue(t.database.db, { companyId: bare.id }, bareConnection.id)).toBe(bareQueue!.id);
  });
});
