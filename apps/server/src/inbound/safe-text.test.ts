import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { contacts, messages } from '../platform/db/schema.js';
import { createTestContext, type TestContext } from '../test/test-app.js';
import { createServiceDeskFactories } from '../test/service-desk-factories.js';
import { ingestMessage } from './ingest.js';
import { inTenant } from '../platform/db/tenant.js';

/**
 * A customer's message is never lost to characters PostgreSQL refuses: NUL and
 * unpaired surrogates are removed on the way in, whatever the provider (the
 * Cloud API's webhook has its own case in cloud-api.test.ts).
 */
let t: TestContext;
let companyId: number;
let connectionId: number;
let token: string;

beforeAll(async () => {
  t = await createTestContext();
  const company = await t.factories.buildCompany();
  companyId = company.id;
  connectionId = (await createServiceDeskFactories(t.database.db).buildConnection(company.id)).id;
  token = (await company.admin.login()).token;
});
afterAll(() => t?.close());

async function stored(externalId: string) {
  const [row] = await t.database.db
    .select({ body: messages.body, isEdited: messages.isEdited, contactName: contacts.name })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    .where(inTenant(messages, { companyId }, eq(messages.externalId, externalId)));
  return row ?? null;
}

describe('inbound text with NUL or unpaired surrogates', () => {
  it('through the sandbox phone: stored without those characters, and so is an edit of it', async () => {
    const response = await t.request(token, 'POST', `/sandbox/${connectionId}/inbound`, {
      from: '5511977770001',
      name: 'Jo\u0000ana\udc00',
      body: 'Bom\u0000 dia \ud83d\ude00\ud83d!',
      id: 'sandbox-nul-1',
    });
    expect(response.statusCode).toBe(201);
    expect(await stored('sandbox-nul-1')).toEqual({ body: 'Bom dia \u{1F600}!', isEdited: false, contactName: 'Joana' });

    const edit = await t.request(token, 'POST', `/sandbox/${connectionId}/edit`, { id: 'sandbox-nul-1', body: 'Boa\u0000 tarde\udfff' });
    expect(edit.statusCode).toBe(200);
    expect(await stored('sandbox-nul-1')).toMatchObject({ body: 'Boa tarde', isEdited: true });

    // An id with NUL names no message (it reached the query and answered 500).
    const unknown = await t.request(token, 'POST', `/sandbox/${connectionId}/edit`, { id: 'sandbox-nul-1\u0000x', body: 'Boa noite' });
    expect(unknown.statusCode).toBe(404);

    // Nothing but NUL is an empty message, refused like any other.
    const empty = await t.request(token, 'POST', `/sandbox/${connectionId}/inbound`, { from: '5511977770001', body: '\u0000\u0000', id: 'sandbox-nul-2' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json()).toMatchObject({ error: 'ERR_EMPTY_MESSAGE' });
    expect(await stored('sandbox-nul-2')).toBeNull();
  });

  it('from any provider (what Baileys hands to ingest): stored without them, and the ticket preview too', async () => {
    const result = await ingestMessage(t.app.services, {
      channel: 'baileys',
      companyId,
      whatsappId: connectionId,
      externalId: 'baileys-nul-1',
      from: '5511977770002',
      contactName: '\u0000Rui',
      body: 'Oi\u0000\ud800',
    });
    expect(result.duplicate).toBe(false);
    expect(await stored('baileys-nul-1')).toEqual({ body: 'Oi', isEdited: false, contactName: 'Rui' });
    const ticket = await t.request(token, 'GET', `/tickets/${result.ticketId}`);
    expect(ticket.json()).toMatchObject({ lastMessage: 'Oi' });
  });

  it('with a timestamp PostgreSQL cannot store (invalid, or year 0000): stored at its arrival time', async () => {
    const before = Date.now();
    for (const [externalId, timestamp] of [
      ['bad-time-1', new Date(Number.NaN)],
      ['bad-time-2', new Date('0000-06-01T00:00:00Z')],
    ] as const) {
      await ingestMessage(t.app.services, { channel: 'baileys', companyId, whatsappId: connectionId, externalId, from: '5511977770003', body: externalId, timestamp });
      const [row] = await t.database.db.select({ createdAt: messages.createdAt }).from(messages).where(eq(messages.externalId, externalId));
      expect(row?.createdAt.getTime()).toBeGreaterThanOrEqual(before - 1000);
    }
  });
});
