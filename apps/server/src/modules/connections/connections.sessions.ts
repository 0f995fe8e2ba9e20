import type { AppServices } from '../../app.js';
import { providerKindOf } from '../../channels/channel-provider.js';
import { checkCloudApiConnection } from '../../channels/cloud-api/cloud-api.session.js';
import { writeSessionState } from '../../channels/connection-state.js';
import { hasSession, requestSessionStart, requestSessionStop } from '../../channels/session-control.js';
import type { WhatsappRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize } from '../../platform/http/guards.js';
import { presentSession } from './connections.presenter.js';
import { findConnection } from './connections.repo.js';

export type SessionAction = 'retry' | 'newQr' | 'disconnect';

const MESSAGES: Record<SessionAction, string> = {
  retry: 'Starting session.',
  newQr: 'Starting session.',
  disconnect: 'Session disconnected.',
};

async function act(services: AppServices, connection: WhatsappRow, action: SessionAction): Promise<void> {
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  if (hasSession(connection)) {
    if (action === 'disconnect') await requestSessionStop(services, ref);
    else await requestSessionStart(services, ref, { reset: action === 'newQr' });
    return;
  }
  if (action === 'disconnect') {
    await writeSessionState(services, ref, { status: 'DISCONNECTED', qrcode: '' });
    return;
  }
  // Nothing to pair: a new QR code means the same as a retry.
  if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(services, connection);
  else await writeSessionState(services, ref, { status: 'CONNECTED', qrcode: '', retries: 0 });
}

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
  await act(services, connection, action);
  const updated = (await findConnection(services.db, ctx, id)) ?? connection;
  return { message: MESSAGES[action], session: presentSession(updated) };
}
