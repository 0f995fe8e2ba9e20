import { IdParams, TicketNoteBody, TicketNoteListQuery } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentTicketNote } from './ticket-notes.presenter.js';
import { createNote, deleteNote, listNotes, type TicketNotesDeps } from './ticket-notes.service.js';

export function registerTicketNoteRoutes(scope: FastifyInstance, deps: TicketNotesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/ticket-notes/list', { schema: { querystring: TicketNoteListQuery } }, async (request) => {
    return (await listNotes(deps, request.ctx, request.query)).map(presentTicketNote);
  });

  app.post('/ticket-notes', { schema: { body: TicketNoteBody } }, async (request, reply) => {
    return reply.status(201).send(presentTicketNote(await createNote(deps, request.ctx, request.body)));
  });

  app.delete('/ticket-notes/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteNote(deps, request.ctx, request.params.id);
    return { message: 'Note deleted' };
  });
}
