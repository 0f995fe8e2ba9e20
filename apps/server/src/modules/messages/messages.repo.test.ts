import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { presentedMessagesJson, presentMessage } from './messages.presenter.js';
import { loadMessageDetails, pageConversation } from './messages.repo.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
});
afterAll(() => t.close());

/** A signed media URL without its expiry and signature, which depend on the second it was signed in. */
const unsigned = (messages: { mediaUrl: string | null }[]) => messages.map((m) => ({ ...m, mediaUrl: m.mediaUrl?.split('?')[0] ?? null }));

/** A conversation page as the API sends it, read back, and the same messages through presentMessage. */
async function bothWays(companyId: number, ticket: { contactId: number; whatsappId: number | null }, pageNumber = 1) {
  const page = await pageConversation(t.database.sql, { companyId }, ticket, pageNumber);
  const fromDatabase = JSON.parse(presentedMessagesJson(page.messages, t.app.services.media)) as ReturnType<typeof presentMessage>[];
  const ids = fromDatabase.map((m) => m.id);
  const fromServer = (await loadMessageDetails(t.database.db, { companyId }, ids)).map((m) => presentMessage(m, t.app.services.media));
  return { fromDatabase, fromServer, hasMore: page.hasMore };
}

describe('pageConversation (the conversation screen)', () => {
  it('gives what presentMessage gives, oldest first, with media URLs signed by the server', async () => {
    const company = await t.factories.buildCompany();
    const agent = await t.factories.buildUser(company.id, { name: 'Ágata' });
    const connection = await sd.buildConnection(company.id);
    const contact = await sd.buildTicketContact(company.id, { name: 'Zé "Quote" \n</script>' });
    const earlier = await sd.buildTicket(company.id, { contactId: contact.id, whatsappId: connection.id, status: 'closed' });
    const ticket = await sd.buildTicket(company.id, { contactId: contact.id, whatsappId: connection.id, status: 'open', userId: agent.id });

    const first = await sd.buildMessage(earlier, { body: 'Olá\u0001 "pedido" \\ 🚚\u2028fim', externalId: 'ext-1' });
    const deleted = await sd.buildMessage(earlier, { body: 'apagada', mediaType: 'image', mediaPath: `${company.id}/2026-11/a.jpg`, isDeleted: true, fromMe: true, userId: agent.id, source: 'agent' });
    const photo = await sd.buildMessage(ticket, { body: '', mediaType: 'image', mediaPath: `${company.id}/2026-11/foto ção.jpg`, mediaName: 'foto ção.jpg', ack: 3, read: true });
    await sd.buildMessage(ticket, { body: 'resposta', quotedMsgId: first.id, fromMe: true, userId: agent.id, source: 'agent', isEdited: true });
    await sd.buildMessage(ticket, { body: 'sobre a apagada', quotedMsgId: deleted.id, senderName: 'Grupo: João' });
    await sd.buildMessage(ticket, { body: 'sobre a foto', quotedMsgId: photo.id });
    // Microseconds the API drops: both sides give the millisecond.
    await t.database.db.execute(sql`update messages set created_at = created_at + interval '0.000123 second' where ticket_id = ${ticket.id}`);

    const { fromDatabase, fromServer, hasMore } = await bothWays(company.id, ticket);
    expect(fromDatabase).toHaveLength(6);
    expect(hasMore).toBe(false);
    expect(unsigned(fromDatabase)).toEqual(unsigned(fromServer));
    expect(fromDatabase[0]?.id).toBe(first.id);
    expect(fromDatabase[2]?.mediaUrl).toMatch(/^\/media\/\d+\/2026-11\/foto%20%C3%A7%C3%A3o\.jpg\?expires=\d+&signature=/);
    expect(fromDatabase[1]).toMatchObject({ body: '', mediaUrl: null, isDeleted: true });
    expect(fromDatabase[4]?.quotedMsg).toMatchObject({ id: deleted.id, body: '', isDeleted: true, contact: { name: contact.name } });
  });

  it('pages newest first and reads the history of a deleted connection', async () => {
    const company = await t.factories.buildCompany();
    const ticket = await sd.buildTicket(company.id);
    for (let i = 0; i < 23; i++) await sd.buildMessage(ticket, { body: `mensagem ${i}` });

    const newest = await bothWays(company.id, ticket);
    expect(newest.hasMore).toBe(true);
    expect(newest.fromDatabase.map((m) => m.body)).toEqual(Array.from({ length: 20 }, (_, i) => `mensagem ${i + 3}`));
    const oldest = await bothWays(company.id, ticket, 2);
    expect(oldest.fromDatabase.map((m) => m.body)).toEqual(['mensagem 0', 'mensagem 1', 'mensagem 2']);
    expect(oldest.hasMore).toBe(false);

    await t.database.db.execute(sql`update messages set whatsapp_id = null where ticket_id = ${ticket.id}`);
    const orphan = await bothWays(company.id, { contactId: ticket.contactId, whatsappId: null });
    expect(orphan.fromDatabase).toHaveLength(20);
    expect(unsigned(orphan.fromDatabase)).toEqual(unsigned(orphan.fromServer));
    // Another company sees none of them.
    expect((await pageConversation(t.database.sql, { companyId: company.id + 1_000_000 }, ticket, 1)).messages).toEqual([]);
  });
});
