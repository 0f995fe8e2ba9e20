import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceDeskFactories } from '../../test/service-desk-factories.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';
import { presentTicket } from './tickets.presenter.js';
import { loadTicketDetails, presentTicketsInDatabase } from './tickets.repo.js';

let t: TestContext;
let sd: ReturnType<typeof createServiceDeskFactories>;

beforeAll(async () => {
  t = await createTestContext();
  sd = createServiceDeskFactories(t.database.db);
});
afterAll(() => t.close());

describe('presentTicketsInDatabase (the ticket lists)', () => {
  it('gives what presentTicket gives, in the order asked, and only the tenant’s tickets', async () => {
    const company = await t.factories.buildCompany();
    const other = await t.factories.buildCompany();
    const queue = await t.factories.buildQueue(company.id, { name: 'Suporte "N1"', color: '#2e7d32' });
    const agent = await t.factories.buildUser(company.id, { name: 'Ágata Ü 😀', queueIds: [queue.id] });
    const connection = await sd.buildConnection(company.id, { name: 'Loja \\ centro' });
    const [vip, late] = [await sd.buildTag(company.id, { name: 'vip', color: '#ff0000' }), await sd.buildTag(company.id, { name: 'atrasado' })];
    const contact = await sd.buildTicketContact(company.id, { name: 'Zé "Quote" \n\t</script>', email: 'ze@example.com', profilePicUrl: 'https://example.com/p.jpg' });

    const full = await sd.buildTicket(company.id, {
      contactId: contact.id,
      whatsappId: connection.id,
      queueId: queue.id,
      userId: agent.id,
      status: 'open',
      unreadMessages: 3,
      lastMessage: 'Olá\u0001 "pedido" \\ 🚚\u2028fim',
      chatbot: true,
    });
    await sd.tagTicket(company.id, full.id, [vip!.id, late!.id]);
    const bare = await sd.buildTicket(company.id, { whatsappId: connection.id });
    const withoutConnection = await sd.buildTicket(company.id, { whatsappId: connection.id, isGroup: true });
    await t.database.db.execute(sql`update tickets set whatsapp_id = null where id = ${withoutConnection.id}`);
    // Microseconds the API drops: both sides give the millisecond.
    await t.database.db.execute(
      sql`update tickets set created_at = '2026-03-04 05:06:07.123456+00', updated_at = '2026-03-04 05:16:07.999999+00' where id = ${full.id}`,
    );
    const foreign = await sd.buildTicket(other.id);

    const ids = [bare.id, full.id, foreign.id, withoutConnection.id];
    const fromDatabase = JSON.parse(await presentTicketsInDatabase(t.database.sql, { companyId: company.id }, ids)) as unknown[];
    const fromServer = (await loadTicketDetails(t.database.db, { companyId: company.id }, ids)).map(presentTicket);

    expect(fromServer.map((ticket) => ticket.id)).toEqual([bare.id, full.id, withoutConnection.id]);
    expect(fromDatabase).toEqual(fromServer);
    expect(fromDatabase[1]).toMatchObject({ createdAt: '2026-03-04T05:06:07.123Z', updatedAt: '2026-03-04T05:16:07.999Z' });
    expect(fromServer[1]?.tags.map((tag) => tag.name)).toEqual(['atrasado', 'vip']);
  });

  it('gives an empty array for no tickets', async () => {
    expect(await presentTicketsInDatabase(t.database.sql, { companyId: 1 }, [])).toBe('[]');
    expect(await presentTicketsInDatabase(t.database.sql, { companyId: 1 }, [2_000_000_000])).toBe('[]');
  });
});
