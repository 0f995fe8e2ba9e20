import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize } from '../../platform/http/guards.js';
import type { SessionAction } from './channel-provider.js';
import { presentSession } from './connections.presenter.js';
import { findConnection } from './connections.repo.js';

const MESSAGES: Record<SessionAction, string> = {
  retry: 'Starting session.',
  newQr: 'Starting session.',
  disconnect: 'Session disconnected.',
};

/**
 * `POST /whatsappsession/:id` retry, `PUT` new QR code (the pairing forgotten,
 * a new one starts), `DELETE` disconnect (logged out of the phone). Each
 * answers the session as it is right after the request; what follows (QR codes,
 * CONNECTED) arrives on `company-{id}-whatsappSession`.
 */
export async function sessionAction(services: AppServices, ctx: RequestContext, id: number, action: SessionAction) {
  authorize(ctx, 'connections-page:actionButtons');
  const connection = await findConnection(services.db, ctx, id);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  await services.channels.sessionAction(connection, action);
  const updated = (await findConnection(services.db, ctx, id)) ?? connection;
  return { message: MESSAGES[action], session: presentSession(updated) };
}
