import { desc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { ticketNotes, users } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { TicketNoteDetail } from './ticket-notes.presenter.js';
import { inTenant } from '../../platform/db/tenant.js';

/** A contact's notes shown at once; older ones beyond this are not listed. */
const NOTES_LIMIT = 500;

function selectNotes(db: DbOrTx) {
  return db
    .select({
      id: ticketNotes.id,
      note: ticketNotes.note,
      ticketId: ticketNotes.ticketId,
      contactId: ticketNotes.contactId,
      userId: ticketNotes.userId,
      userName: users.name,
      createdAt: ticketNotes.createdAt,
    })
    .from(ticketNotes)
    .leftJoin(users, eq(users.id, ticketNotes.userId));
}

export async function findNote(db: DbOrTx, scope: TenantScope, id: number): Promise<TicketNoteDetail | null> {
  const [row] = await selectNotes(db)
    .where(inTenant(ticketNotes, scope, eq(ticketNotes.id, id)))
    .limit(1);
  return row ?? null;
}

/** The contact's notes across all its tickets, newest first (the `(company_id, contact_id, created_at)` index). */
export async function listContactNotes(db: DbOrTx, scope: TenantScope, contactId: number): Promise<TicketNoteDetail[]> {
  return selectNotes(db)
    .where(inTenant(ticketNotes, scope, eq(ticketNotes.contactId, contactId)))
    .orderBy(desc(ticketNotes.createdAt), desc(ticketNotes.id))
    .limit(NOTES_LIMIT);
}

export async function insertNote(
  db: DbOrTx,
  scope: TenantScope,
  note: { ticketId: number; contactId: number; userId: number; note: string },
): Promise<number> {
  const [row] = await db
    .insert(ticketNotes)
    .values({ ...note, companyId: scope.companyId })
    .returning({ id: ticketNotes.id });
  if (!row) throw new Error('note not inserted');
  return row.id;
}

export async function deleteNoteRow(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(ticketNotes).where(inTenant(ticketNotes, scope, eq(ticketNotes.id, id)));
}
