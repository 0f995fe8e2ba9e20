import { randomUUID } from 'node:crypto';
import { eq, inArray, sql } from 'drizzle-orm';
import type { AppServices } from '../app.js';
import type { DbOrTx } from '../platform/db/client.js';
import { whatsapps, type WhatsappRow } from '../platform/db/schema.js';
import { clearAuthState } from './baileys/baileys-auth-state.js';
import { providerKindOf, type SessionAction } from '../modules/connections/channel-provider.js';
import { announceSession, writeSessionState, type SessionRef } from '../modules/connections/connection-state.js';
import { checkCloudApiConnection } from './cloud-api/cloud-api.session.js';
import { inTenant } from '../platform/db/tenant.js';

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

export function hasSession(row: Pick<WhatsappRow, 'provider'>): boolean {
  return (SESSION_PROVIDERS as readonly string[]).includes(row.provider);
}

/** Sessions the supervisors should run: every Baileys connection not disconnected on purpose. */
export async function wantedSessions(db: DbOrTx): Promise<Pick<WhatsappRow, 'id' | 'companyId' | 'status' | 'providerConfig'>[]> {
  return db
    .select({ id: whatsapps.id, companyId: whatsapps.companyId, status: whatsapps.status, providerConfig: whatsapps.providerConfig })
    .from(whatsapps)
    .where(inArray(whatsapps.provider, [...SESSION_PROVIDERS]));
}

/** Retry (`POST /whatsappsession/:id`) or new QR code (`PUT`, `reset`): the session (re)starts, OPENING. */
export async function requestSessionStart(services: Pick<AppServices, 'db' | 'events' | 'channels'>, ref: SessionRef, options: { reset: boolean }): Promise<void> {
  const epoch = `${options.reset ? 'reset' : 'retry'}-${randomUUID()}`;
  await services.db.transaction(async (tx) => {
    await tx
      .update(whatsapps)
      .set({
        status: 'OPENING',
        qrcode: '',
        retries: 0,
        providerConfig: sql`${whatsapps.providerConfig} || ${JSON.stringify({ sessionEpoch: epoch })}::jsonb`,
        updatedAt: sql`now()`,
      })
      .where(inTenant(whatsapps, ref, eq(whatsapps.id, ref.whatsappId)));
    if (options.reset) await clearAuthState(tx, ref);
  });
  await announceSession(services, ref);
  services.channels.wake();
}

/**
 * Disconnect (`DELETE /whatsappsession/:id`): DISCONNECTED and the pairing
 * forgotten. The node running the session sees the status, logs the device
 * out of the phone and stops.
 */
export async function requestSessionStop(services: Pick<AppServices, 'db' | 'events' | 'channels'>, ref: SessionRef): Promise<void> {
  await services.db.transaction(async (tx) => {
    await tx
      .update(whatsapps)
      .set({ status: 'DISCONNECTED', qrcode: '', retries: 0, updatedAt: sql`now()` })
      .where(inTenant(whatsapps, ref, eq(whatsapps.id, ref.whatsappId)));
    await clearAuthState(tx, ref);
  });
  await announceSession(services, ref);
  services.channels.wake();
}

type SessionServices = Pick<AppServices, 'db' | 'events' | 'channels' | 'secrets' | 'config'>;

/** Brings a new or reconfigured connection's session up: QR pairing, a Graph API check, or nothing to do (sandbox). */
export async function startSession(services: SessionServices, connection: WhatsappRow): Promise<void> {
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  if (hasSession(connection)) await requestSessionStart(services, ref, { reset: false });
  else if (providerKindOf(connection.provider) === 'cloud-api') await checkCloudApiConnection(services, connection);
}

/** `POST /whatsappsession/:id` retry, `PUT` new QR code, `DELETE` disconnect, as the connection's provider does them. */
export async function applySessionAction(services: SessionServices, connection: WhatsappRow, action: SessionAction): Promise<void> {
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
