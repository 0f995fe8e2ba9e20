import { ApiKeyBody, id } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentApiKey, presentApiKeys, presentCreatedApiKey } from './api-keys.presenter.js';
import { createApiKey, listApiKeys, revokeApiKey, type ApiKeysDeps } from './api-keys.service.js';

const ApiKeyParams = z.object({ id: id() });

export function registerApiKeyRoutes(scope: FastifyInstance, deps: ApiKeysDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/api-keys', async (request) => presentApiKeys(await listApiKeys(deps, request.ctx)));

  app.post('/api-keys', { schema: { body: ApiKeyBody } }, async (request, reply) => {
    const { row, key } = await createApiKey(deps, request.ctx, request.body);
    return reply.status(201).header('cache-control', 'no-store').send(presentCreatedApiKey(row, request.ctx.user.name, key));
  });

  app.delete('/api-keys/:id', { schema: { params: ApiKeyParams } }, async (request) => presentApiKey(await revokeApiKey(deps, request.ctx, request.params.id)));
}
