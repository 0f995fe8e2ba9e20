import { CONNECTION_STATUSES, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { presentSession } from '../modules/connections/connections.presenter.js';
import type { Platform } from '../platform/platform.js';
import type { ZodTypeProvider } from '../platform/http/zod-provider.js';
import { writeTestSessionState, type TestSessionDeps } from './test-session.service.js';

const TestSessionBody = z.object({
  status: z.enum(CONNECTION_STATUSES).optional(),
  qrcode: z.string().max(1000).optional(),
});

/**
 * Browser tests only (NODE_ENV=test): no WhatsApp is reachable there, so a
 * test plays the session's part — a status, a QR code to scan, the pairing —
 * through the same write and events a provider uses (`writeSessionState`:
 * `company-{id}-whatsappSession` and `company-{id}-whatsapp`). In any other
 * mode the route does not exist. A Baileys connection keeps its real session
 * running, which writes its own states too: tests drive the QR flow on a
 * connection without a session (sandbox or Cloud API).
 */
export function registerTestSessionRoutes(scope: FastifyInstance, deps: TestSessionDeps & Pick<Platform, 'config'>): void {
  if (deps.config.NODE_ENV !== 'test') return;
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/test/connections/:id/session', { schema: { params: IdParams, body: TestSessionBody } }, async (request) => {
    return presentSession(await writeTestSessionState(deps, request.ctx, request.params.id, request.body));
  });
}
