import { randomUUID } from 'node:crypto';
import type { WhatsappRow } from '../platform/db/schema.js';
import type { Platform } from '../platform/platform.js';
import { clearAuthState } from './baileys/baileys-auth-state.js';
import { providerKindOf, type ChannelGateway, type SessionAction } from '../modules/connections/channel-provider.js';
import { announceSession, writeSessionState, type SessionRef } from '../modules/connections/connection-state.js';
import { checkCloudApiConnection, type CloudApiCheckDeps } from './cloud-api/cloud-api.session.js';
import { disconnectSession, openSessionEpoch } from './channels.repo.js';

/** Asking for a session change: the row and its event, then this process's supervisor woken. */
export type SessionRequestDeps = Pick<Platform, 'db' | 'events'> & { channels: Pick<ChannelGateway, 'wake'> };
/** Applying an admin's session action, whichever the provider (a Cloud API connection is checked against the Graph API). */
export type SessionControlDeps = SessionRequestDeps & CloudApiCheckDeps;

/** Stored provider names whose connections run a supervised session (Baileys: the spec's 'beta'). */
export const SESSION_PROVIDERS = ['beta', 'baileys'] as const;

/**
 * The session epoch, kept in `provider_config.sessionEpoch`: the API changes it
 * to ask the node running a session to restart it ("retry-…") or to restart it
 * from a blank state, i.e. a new QR code ("reset-…"). Requests thus reach the
 * session whichever node runs it.
 */
export function sessionEpochOf(row: Pick<WhatsappRow, 'providerConfig'>): string {
  return row.providerConfig.sessionEpoch ?? '';
}

export function isResetEpoch(epoch: string): boolean {
  return epoch.startsWith('reset-');
}

function hasSession(row: Pick<WhatsappRow, 'provider'>): boolean {
  return (SESSION_PROVIDERS as readonly string[]).includes(row.provider);
}

/** Retry (`POST /whatsappsession/:id`) or new QR code (`PUT`, `reset`): the session (re)starts, OPENING. */
export async function requestSessionStart(deps: SessionRequestDeps, ref: SessionRef, options: { reset: boolean }): Promise<void> {
  const epoch = `${options.reset ? 'reset' : 'retry'}-${randomUUID()}`;
  await deps.db.transaction(async (tx) => {
    await openSessionEpoch(tx, ref, epoch);
    if (options.reset) await clearAuthState(tx, ref);
  });
  await announceSession(deps, ref);
  deps.channels.wake();
}

/**
 * Disconnect (`DELETE /whatsappsession/:id`): DISCONNECTED and the pairing
 * forgotten. The node running the session sees the status, logs the device
 * out of the phone and stops.
 */
export async function requestSessionStop(deps: SessionRequestDeps, ref: SessionRef): Promise<void> {
  await deps.db.transaction(async (tx) => {
    await disconnectSession(tx, ref);
    await clearAuthState(tx, ref);
  });
  await announceSession(deps, ref);
  deps.channels.wake();
}

/** Brings a new or reconfigured connection's session up: QR pairing, a Graph API check, or nothing to do (sandbox). */
export async function startSession(deps: SessionControlDeps, connection: WhatsappRow): Promise<void> {
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  if (hasSession(connection)) await requestSessionStart(deps, ref, { reset: false });
  else if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(deps, connection);
}

/** `POST /whatsappsession/:id` retry, `PUT` new QR code, `DELETE` disconnect, as the connection's provider does them. */
export async function applySessionAction(deps: SessionControlDeps, connection: WhatsappRow, action: SessionAction): Promise<void> {
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  if (hasSession(connection)) {
    if (action === 'disconnect') await requestSessionStop(deps, ref);
    else await requestSessionStart(deps, ref, { reset: action === 'newQr' });
    return;
  }
  if (action === 'disconnect') {
    await writeSessionState(deps, ref, { status: 'DISCONNECTED', qrcode: '' });
    return;
  }
  // Nothing to pair: a new QR code means the same as a retry.
  if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(deps, connection);
  else await writeSessionState(deps, ref, { status: 'CONNECTED', qrcode: '', retries: 0 });
}
