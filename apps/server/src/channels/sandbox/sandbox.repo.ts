import { asc, eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { contacts, messages, sandboxOutbox } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** One message the product sent through a sandbox connection, as the simulated phone keeps it. */
export type SandboxOutboxRow = typeof sandboxOutbox.$inferSelect;

/** Kept once per id: a keyed send repeated is a no-op. */
export async function insertOutboxEntry(db: DbOrTx, entry: typeof sandboxOutbox.$inferInsert): Promise<void> {
  await db.insert(sandboxOutbox).values(entry).onConflictDoNothing();
}

/** The product deleted the message for everyone: the phone shows it deleted. */
export async function markOutboxDeleted(db: DbOrTx, scope: TenantScope, whatsappId: number, externalId: string): Promise<void> {
  await db
    .update(sandboxOutbox)
    .set({ deleted: true })
    .where(inTenant(sandboxOutbox, scope, eq(sandboxOutbox.whatsappId, whatsappId), eq(sandboxOutbox.externalId, externalId)));
}

/** The product edited a sent text: the phone shows the new text. */
export async function editOutboxEntry(db: DbOrTx, scope: TenantScope, whatsappId: number, externalId: string, body: string): Promise<void> {
  await db
    .update(sandboxOutbox)
    .set({ body })
    .where(inTenant(sandboxOutbox, scope, eq(sandboxOutbox.whatsappId, whatsappId), eq(sandboxOutbox.externalId, externalId)));
}

export type SandboxInboundRow = Awaited<ReturnType<typeof inboundFor>>[number];

/** What the customer with this number sent through the connection, oldest first. */
export async function inboundFor(db: DbOrTx, scope: TenantScope, whatsappId: number, number: string) {
  return db
    .select({
      externalId: messages.externalId,
      id: messages.id,
      body: messages.body,
      mediaType: messages.mediaType,
      mediaPath: messages.mediaPath,
      mediaName: messages.mediaName,
      createdAt: messages.createdAt,
    })
    .from(messages)
    .innerJoin(contacts, eq(contacts.id, messages.contactId))
    .where(inTenant(messages, scope, eq(messages.whatsappId, whatsappId), eq(contacts.number, number), eq(messages.fromMe, false)))
    .orderBy(asc(messages.createdAt))
    .limit(500);
}

/** What the product sent to one number through a sandbox connection, oldest first. */
export async function outboxFor(db: DbOrTx, scope: TenantScope, whatsappId: number, number: string): Promise<SandboxOutboxRow[]> {
  return db
    .select()
    .from(sandboxOutbox)
    .where(
      inTenant(sandboxOutbox, scope, eq(sandboxOutbox.whatsappId, whatsappId), eq(sandboxOutbox.number, number.replace(/\D/g, ''))),
    )
    .orderBy(asc(sandboxOutbox.createdAt), asc(sandboxOutbox.id))
    .limit(500);
}

/** Most numbers a simulated phone remembers. */
const PHONE_BOOK_LIMIT = 5000;

/**
 * The simulated phone's address book: every number it exchanged messages
 * with: those the product sent to (the outbox outlives a deleted contact) and
 * those that wrote in. Names come from the company's contacts when known.
 */
export async function sandboxPhoneBook(db: DbOrTx, scope: TenantScope, whatsappId: number): Promise<{ number: string; name: string }[]> {
  const result = (await db.execute(sql`
    with numbers as (
      select o.number from ${sandboxOutbox} o
      where o.company_id = ${scope.companyId} and o.whatsapp_id = ${whatsappId}
      union
      select c.number from ${contacts} c
      where c.company_id = ${scope.companyId}
        and c.id in (
          select m.contact_id from ${messages} m
          where m.company_id = ${scope.companyId} and m.whatsapp_id = ${whatsappId} and not m.from_me
        )
    )
    select n.number, coalesce(c.name, '') as name
    from numbers n
    left join ${contacts} c on c.company_id = ${scope.companyId} and c.number = n.number
    order by n.number
    limit ${PHONE_BOOK_LIMIT}`)) as unknown as { rows: { number: string; name: string }[] };
  return result.rows.map((row) => ({ number: String(row.number), name: String(row.name) }));
}
