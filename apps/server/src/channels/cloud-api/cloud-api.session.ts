import type { WhatsappRow } from '../../platform/db/schema.js';
import type { Platform } from '../../platform/platform.js';
import { writeSessionState } from '../../modules/connections/connection-state.js';
import { isCloudApiConfigured, readCloudApiSettings } from '../../modules/connections/cloud-api-settings.js';
import { createGraphApiClient } from './graph-api.client.js';

/** The connection's sealed settings (secrets, the Graph API's default address) and its session state write. */
export type CloudApiCheckDeps = Pick<Platform, 'db' | 'events' | 'secrets' | 'config'>;

/**
 * A Cloud API connection has no socket: it is CONNECTED when the Graph API
 * accepts its access token for its phone number id (and answers the number),
 * DISCONNECTED otherwise. Checked on create, on a settings change and on retry.
 */
export async function checkCloudApiConnection(deps: CloudApiCheckDeps, connection: WhatsappRow): Promise<WhatsappRow | null> {
  const settings = readCloudApiSettings(connection, deps.secrets, deps.config.GRAPH_API_BASE_URL);
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  if (!isCloudApiConfigured(settings)) return writeSessionState(deps, ref, { status: 'DISCONNECTED', qrcode: '' });
  try {
    const phone = await createGraphApiClient(settings).phoneNumber();
    const number = (phone.display_phone_number ?? '').replace(/\D/g, '');
    return await writeSessionState(deps, ref, { status: 'CONNECTED', qrcode: '', retries: 0, ...(number ? { number } : {}) });
  } catch {
    return writeSessionState(deps, ref, { status: 'DISCONNECTED', qrcode: '' });
  }
}
