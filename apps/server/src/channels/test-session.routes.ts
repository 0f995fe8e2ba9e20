import { CONNECTION_STATUSES, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../app.js';
import { presentSession } from '../modules/connections/connections.presenter.js';
import { findConnection } from '../modules/connections/connections.repo.js';
import { AppError } from '../platform/http/app-error.js';
import { authorize } from '../platform/http/guards.js';
import type { ZodTypeProvider } from '../platform/http/zod-provider.js';
import { writeSessionState } from '../modules/connections/connection-state.js';

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
export function registerTestSessionRoutes(scope: FastifyInstance, services: AppServices): void {
  if (services.config.NODE_ENV !== 'test') return;
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/test/connections/:id/session', { schema: { params: IdParams, body: TestSessionBody } }, async (request) => {
    const { ctx } = request;
    authorize(ctx, 'connections-page:actionButtons');
    const connection = await findConnection(services.db, ctx, request.params.id);
    if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
    const row = await writeSessionState(services, { companyId: ctx.companyId, whatsappId: connection.id }, request.body);
    if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
    return presentSession(row);
  });
}
