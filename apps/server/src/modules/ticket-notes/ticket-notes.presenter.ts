import type { PresentedTicketNote } from '@atende/shared';

export interface TicketNoteDetail {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  userId: number | null;
  userName: string | null;
  createdAt: Date;
}

export function presentTicketNote(note: TicketNoteDetail): PresentedTicketNote {
  return {
    id: note.id,
    note: note.note,
    ticketId: note.ticketId,
    contactId: note.contactId,
    // The author may have been deleted since (the note stays, its author becomes unknown).
    user: note.userId !== null && note.userName !== null ? { id: note.userId, name: note.userName } : null,
    createdAt: note.createdAt.toISOString(),
  };
}
