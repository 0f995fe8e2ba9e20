import { randomBytes } from 'node:crypto';
import type { Db } from '../platform/db/client.js';
import { asc, eq } from 'drizzle-orm';
import { contactExtraInfo, contacts, messages, quickMessages, tags, ticketNotes, ticketTags, tickets, webhookDeliveries, webhooks, whatsapps } from '../platform/db/schema.js';

const hex = () => randomBytes(3).toString('hex');
const digits = () => `55119${String(randomBytes(4).readUInt32BE() % 100_000_000).padStart(8, '0')}`;

export function createServiceDeskFactories(db: Db) {
  const factories = {
    async buildConnection(companyId: number, overrides: Partial<typeof whatsapps.$inferInsert> = {}) {
      const [row] = await db
        .insert(whatsapps)
        .values({ companyId, name: `Sandbox ${randomBytes(3).toString('hex')}`, provider: 'sandbox', status: 'CONNECTED', isDefault: true, ...overrides })
        .returning();
      if (!row) throw new Error('connection not created');
      return row;
    },
    async buildTicketContact(companyId: number, overrides: Partial<typeof contacts.$inferInsert> = {}) {
      const number = overrides.number ?? digits();
      const [row] = await db
        .insert(contacts)
        .values({ companyId, name: `Customer ${number.slice(-4)}`, number, ...overrides })
        .returning();
      if (!row) throw new Error('contact not created');
      return row;
    },
    /** A ticket with its own contact and connection unless given. */
    async buildTicket(companyId: number, overrides: Partial<typeof tickets.$inferInsert> = {}) {
      const whatsappId = overrides.whatsappId ?? (await factories.buildConnection(companyId)).id;
      const contactId = overrides.contactId ?? (await factories.buildTicketContact(companyId)).id;
      const [row] = await db
        .insert(tickets)
        .values({ companyId, status: 'pending', ...overrides, whatsappId, contactId })
        .returning();
      if (!row) throw new Error('ticket not created');
      return row;
    },
    /** A message of a ticket (a customer's text unless told), on the ticket's contact and connection. */
    async buildMessage(ticket: { companyId: number; id: number; contactId: number; whatsappId: number | null }, overrides: Partial<typeof messages.$inferInsert> = {}) {
      const [row] = await db
        .insert(messages)
        .values({ companyId: ticket.companyId, ticketId: ticket.id, contactId: ticket.contactId, whatsappId: ticket.whatsappId, body: `Message ${hex()}`, ...overrides })
        .returning();
      if (!row) throw new Error('message not created');
      return row;
    },
    /** A contact with optional extra info. */
    async buildContact(companyId: number, overrides: Partial<typeof contacts.$inferInsert> & { extraInfo?: { name: string; value: string }[] } = {}) {
      const { extraInfo = [], ...columns } = overrides;
      const contact = await factories.buildTicketContact(companyId, columns);
      if (extraInfo.length > 0) {
        await db.insert(contactExtraInfo).values(extraInfo.map((entry) => ({ ...entry, companyId, contactId: contact.id })));
      }
      return contact;
    },
    async buildTag(companyId: number, overrides: Partial<typeof tags.$inferInsert> = {}) {
      const [row] = await db
        .insert(tags)
        .values({ companyId, name: `Tag ${hex()}`, ...overrides })
        .returning();
      if (!row) throw new Error('tag not created');
      return row;
    },
    async tagTicket(companyId: number, ticketId: number, tagIds: number[]) {
      await db.insert(ticketTags).values(tagIds.map((tagId) => ({ companyId, ticketId, tagId })));
    },
    /** A note on a ticket (its contact unless given), written by `userId`. */
    async buildNote(companyId: number, ticket: { id: number; contactId: number }, userId: number | null, note = `Note ${hex()}`) {
      const [row] = await db.insert(ticketNotes).values({ companyId, ticketId: ticket.id, contactId: ticket.contactId, userId, note }).returning();
      if (!row) throw new Error('note not created');
      return row;
    },
    async buildQuickMessage(companyId: number, userId: number, overrides: Partial<typeof quickMessages.$inferInsert> = {}) {
      const [row] = await db
        .insert(quickMessages)
        .values({ companyId, userId, shortcode: `qm-${hex()}`, message: 'Olá! Como posso ajudar?', ...overrides })
        .returning();
      if (!row) throw new Error('quick message not created');
      return row;
    },
    /**
     * A webhook stored as is (no sender runs in these tests: what it would send is read
     * from the outbox with `webhookOutbox`); `POST /webhooks` is tested in modules/webhooks.
     */
    async buildWebhook(companyId: number, events: string[]) {
      const [row] = await db
        .insert(webhooks)
        .values({ companyId, url: `https://hooks.example.com/${hex()}`, events, secretSealed: 'not-sent' })
        .returning();
      if (!row) throw new Error('webhook not created');
      return row;
    },
    /** A webhook's outbox, oldest first: event, ordering key and the body's data. */
    async webhookOutbox(webhookId: number) {
      const rows = await db
        .select({ event: webhookDeliveries.event, orderingKey: webhookDeliveries.orderingKey, data: webhookDeliveries.data })
        .from(webhookDeliveries)
        .where(eq(webhookDeliveries.webhookId, webhookId))
        .orderBy(asc(webhookDeliveries.id));
      return rows as { event: string; orderingKey: string; data: Record<string, unknown> }[];
    },
  };
  return factories;
}
