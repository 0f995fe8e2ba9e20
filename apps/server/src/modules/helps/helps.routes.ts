import { HelpBody, HelpUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentHelp } from './helps.presenter.js';
import { changeHelp, createHelp, listAllHelps, removeHelp, type HelpsDeps } from './helps.service.js';

/** Spec part 2 §7: `GET /helps` and `GET /helps/list` both list every help (any signed-in user); writes are super only. */
export function registerHelpRoutes(scope: FastifyInstance, deps: HelpsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/helps', async () => (await listAllHelps(deps)).map(presentHelp));
  app.get('/helps/list', async () => (await listAllHelps(deps)).map(presentHelp));

  app.post('/helps', { schema: { body: HelpBody }, preValidation: superOnly }, async (request, reply) => {
    return reply.status(201).send(presentHelp(await createHelp(deps, request.body)));
  });

  app.put('/helps/:id', { schema: { params: IdParams, body: HelpUpdateBody }, preValidation: superOnly }, async (request) => {
    return presentHelp(await changeHelp(deps, request.params.id, request.body));
  });

  app.delete('/helps/:id', { schema: { params: IdParams }, preValidation: superOnly }, async (request) => {
    await removeHelp(deps, request.params.id);
    return { message: 'Help deleted' };
  });
}
