import type { TicketNoteBody, TicketNoteListQuery } from '@atende/shared';
import { contacts } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { showTicket, type TicketsDeps } from '../tickets/tickets.service.js';
import type { TicketNoteDetail } from './ticket-notes.presenter.js';
import { deleteNoteRow, findNote, insertNote, listContactNotes } from './ticket-notes.repo.js';

/** Notes are read and written by who may open the ticket: the tickets module's rule, on the database. */
export type TicketNotesDeps = Pick<TicketsDeps, 'db'>;

/** The ticket the user may open, and the contact must be that ticket's. */
async function assertTicketOfContact(deps: TicketNotesDeps, ctx: RequestContext, ticketId: number, contactId: number): Promise<void> {
  const ticket = await showTicket(deps, ctx, ticketId);
  if (ticket.contactId !== contactId) throw new AppError('ERR_NO_CONTACT_FOUND');
}

export async function createNote(deps: TicketNotesDeps, ctx: RequestContext, body: TicketNoteBody): Promise<TicketNoteDetail> {
  await assertTicketOfContact(deps, ctx, body.ticketId, body.contactId);
  const id = await insertNote(deps.db, ctx, { ticketId: body.ticketId, contactId: body.contactId, userId: ctx.user.id, note: body.note });
  const note = await findNote(deps.db, ctx, id);
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
  return note;
}

/** Notes belong to the contact: the drawer shows those written on all its tickets. */
export async function listNotes(deps: TicketNotesDeps, ctx: RequestContext, query: TicketNoteListQuery): Promise<TicketNoteDetail[]> {
  if (query.ticketId !== undefined) await assertTicketOfContact(deps, ctx, query.ticketId, query.contactId);
  else await assertIdsInTenant(deps.db, ctx, contacts, [query.contactId], 'ERR_NO_CONTACT_FOUND');
  return listContactNotes(deps.db, ctx, query.contactId);
}

/** Its author or an admin may delete a note. */
export async function deleteNote(deps: TicketNotesDeps, ctx: RequestContext, id: number): Promise<void> {
  const note = await findNote(deps.db, ctx, id);
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
  if (note.userId !== ctx.user.id && ctx.user.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
  await deleteNoteRow(deps.db, ctx, id);
}
