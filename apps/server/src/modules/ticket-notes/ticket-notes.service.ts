import type { TicketNoteBody, TicketNoteListQuery } from '@atende/shared';
import type { AppServices } from '../../app.js';
import { contacts } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { showTicket } from '../tickets/tickets.service.js';
import type { TicketNoteDetail } from './ticket-notes.presenter.js';
import { deleteNoteRow, findNote, insertNote, listContactNotes } from './ticket-notes.repo.js';

/** The ticket the user may open, and the contact must be that ticket's. */
async function assertTicketOfContact(services: AppServices, ctx: RequestContext, ticketId: number, contactId: number): Promise<void> {
  const ticket = await showTicket(services, ctx, ticketId);
  if (ticket.contactId !== contactId) throw new AppError('ERR_NO_CONTACT_FOUND');
}

export async function createNote(services: AppServices, ctx: RequestContext, body: TicketNoteBody): Promise<TicketNoteDetail> {
  await assertTicketOfContact(services, ctx, body.ticketId, body.contactId);
  const id = await insertNote(services.db, ctx, { ticketId: body.ticketId, contactId: body.contactId, userId: ctx.user.id, note: body.note });
  const note = await findNote(services.db, ctx, id);
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
  return note;
}

/** Notes belong to the contact: the drawer shows those written on all its tickets. */
export async function listNotes(services: AppServices, ctx: RequestContext, query: TicketNoteListQuery): Promise<TicketNoteDetail[]> {
  if (query.ticketId !== undefined) await assertTicketOfContact(services, ctx, query.ticketId, query.contactId);
  else await assertIdsInTenant(services.db, ctx, contacts, [query.contactId], 'ERR_NO_CONTACT_FOUND');
  return listContactNotes(services.db, ctx, query.contactId);
}

/** Its author or an admin may delete a note. */
export async function deleteNote(services: AppServices, ctx: RequestContext, id: number): Promise<void> {
  const note = await findNote(services.db, ctx, id);
  if (!note) throw new AppError('ERR_NO_NOTE_FOUND');
  if (note.userId !== ctx.user.id && ctx.user.profile !== 'admin') throw new AppError('ERR_NO_PERMISSION');
  await deleteNoteRow(services.db, ctx, id);
}
