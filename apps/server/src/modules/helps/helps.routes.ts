import { HelpBody, HelpUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import type { HelpRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { deleteHelp, insertHelp, listHelps, updateHelp } from './helps.repo.js';

export function presentHelp(row: HelpRow) {
  return {
    id: row.id,
    title: row.title,
    video: row.video,
    description: row.description,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** Spec part 2 §7: `GET /helps` and `GET /helps/list` both list every help (any signed-in user); writes are super only. */
export function registerHelpRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/helps', async () => (await listHelps(services.db)).map(presentHelp));
  app.get('/helps/list', async () => (await listHelps(services.db)).map(presentHelp));

  app.post('/helps', { schema: { body: HelpBody }, preValidation: superOnly }, async (request, reply) => {
    return reply.status(201).send(presentHelp(await insertHelp(services.db, request.body)));
  });

  app.put('/helps/:id', { schema: { params: IdParams, body: HelpUpdateBody }, preValidation: superOnly }, async (request) => {
    const help = await updateHelp(services.db, request.params.id, request.body);
    if (!help) throw new AppError('ERR_NO_HELP_FOUND');
    return presentHelp(help);
  });

  app.delete('/helps/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    if (!(await deleteHelp(services.db, request.params.id))) throw new AppError('ERR_NO_HELP_FOUND');
    return { message: 'Help deleted' };
  });
}
