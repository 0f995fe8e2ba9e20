import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { VIEWER_CSS, VIEWER_HTML, VIEWER_SCRIPT } from './api-docs-viewer.js';
import { AppError } from './app-error.js';
import type { OpenApi } from './openapi.js';

const ASSETS: Record<string, { type: string; body: string }> = {
  'viewer.js': { type: 'text/javascript; charset=utf-8', body: VIEWER_SCRIPT },
  'viewer.css': { type: 'text/css; charset=utf-8', body: VIEWER_CSS },
};

/**
 * `GET /openapi.json` (the document, public) and the reference page `GET /api-docs`
 * with its two files. The document is built on the first request and kept.
 */
export function registerOpenApiRoutes(app: FastifyInstance, openApi: OpenApi): void {
  app.get('/openapi.json', async (_request, reply) => {
    return reply.type('application/json; charset=utf-8').header('cache-control', 'no-cache').send(openApi.json());
  });
  app.get('/api-docs', async (_request, reply) => {
    return reply.type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(VIEWER_HTML);
  });
  app.get('/api-docs/:asset', { schema: { params: z.object({ asset: z.string().max(32) }) } }, async (request, reply) => {
    const { asset } = request.params as { asset: string };
    const file = ASSETS[asset];
    if (!file) throw new AppError('ERR_NOT_FOUND');
    return reply.type(file.type).header('cache-control', 'no-cache').send(file.body);
  });
}
