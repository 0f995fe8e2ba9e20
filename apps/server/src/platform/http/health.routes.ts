import { APP_VERSION } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';

export function registerHealthRoutes(app: FastifyInstance, services: AppServices): void {
  app.get('/health', async (_request, reply) => {
    try {
      await services.database.ping();
      return { status: 'ok', database: services.database.kind };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: services.database.kind });
    }
  });
  app.get('/version', async () => ({ version: APP_VERSION }));
}
