import { IdParams, IntegrationBody, IntegrationTestSessionBody, IntegrationUpdateBody, PageQuery } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AutomationDeps } from '../automation-runtime.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentIntegration } from './integrations.presenter.js';
import { pageIntegrations } from './integrations.repo.js';
import {
  assertMayManageIntegrations,
  createIntegration,
  deleteIntegration,
  showIntegration,
  testDialogflowSession,
  updateIntegration,
} from './integrations.service.js';

/** Integrations (spec part 2 §7, `/queueIntegration`). Plan and role are checked before the body. */
export function registerIntegrationRoutes(scope: FastifyInstance, services: AutomationDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = { preValidation: async (request: { ctx: RequestContext }) => assertMayManageIntegrations(request.ctx) };
  const present = (integration: Parameters<typeof presentIntegration>[0]) => presentIntegration(integration, services.secrets);

  app.get('/queueIntegration', { schema: { querystring: PageQuery }, ...guard }, async (request) => {
    const page = await pageIntegrations(services.db, request.ctx, request.query);
    return { queueIntegrations: page.integrations.map(present), count: page.count, hasMore: page.hasMore };
  });

  // Registered before '/:id' reads "testSession" as an id.
  app.post('/queueIntegration/testSession', { schema: { body: IntegrationTestSessionBody }, ...guard }, async (request) => {
    return testDialogflowSession(services, request.ctx, request.body);
  });

  app.get('/queueIntegration/:id', { schema: { params: IdParams }, ...guard }, async (request) => {
    return present(await showIntegration(services, request.ctx, request.params.id));
  });

  app.post('/queueIntegration', { schema: { body: IntegrationBody }, ...guard }, async (request, reply) => {
    const { integration, generatedSigningSecret } = await createIntegration(services, request.ctx, request.body);
    const body = present(integration);
    // Shown this once so the receiver can verify signatures; afterwards only masked.
    return reply.status(201).send(generatedSigningSecret ? { ...body, signingSecret: generatedSigningSecret } : body);
  });

  app.put('/queueIntegration/:id', { schema: { params: IdParams, body: IntegrationUpdateBody }, ...guard }, async (request) => {
    return present(await updateIntegration(services, request.ctx, request.params.id, request.body));
  });

  app.delete('/queueIntegration/:id', { schema: { params: IdParams }, ...guard }, async (request) => {
    await deleteIntegration(services, request.ctx, request.params.id);
    return { message: 'Integration deleted' };
  });
}
