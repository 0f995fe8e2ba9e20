/**
 * Whaticket v6 keeps a connection's Baileys auth state in `Whatsapps.session`: one JSON
 * text `{ creds, keys: { preKeys: {...}, sessions: {...}, ... } }` written with Baileys'
 * BufferJSON. Atende keeps the same state as rows of `baileys_auth_keys`: `creds`, and
 * one `<type>/<id>` row per signal key, each value in the same BufferJSON form
 * (channels/baileys/baileys-auth-state.ts). The values are moved as they are, without
 * reviving their buffers.
 */
const KEY_TYPES: Record<string, string> = {
  preKeys: 'pre-key',
  sessions: 'session',
  senderKeys: 'sender-key',
  appStateSyncKeys: 'app-state-sync-key',
  appStateVersions: 'app-state-sync-version',
  senderKeyMemory: 'sender-key-memory',
  lidMapping: 'lid-mapping',
  deviceList: 'device-list',
  tctoken: 'tctoken',
};

export interface ConvertedSession {
  keys: { key: string; value: string }[];
  /** Why a stored session was not kept. */
  problem?: string;
}

export function convertSession(session: unknown): ConvertedSession {
  if (typeof session !== 'string' || session.trim() === '') return { keys: [] };
  let parsed: unknown;
  try {
    parsed = JSON.parse(session);
  } catch {
    return { keys: [], problem: 'not JSON' };
  }
  if (!parsed || typeof parsed !== 'object') return { keys: [], problem: 'not an auth state' };
  const { creds, keys } = parsed as { creds?: Record<string, unknown>; keys?: Record<string, Record<string, unknown>> };
  // Without a paired account (`me`) the credentials only lead to a new QR code.
  if (!creds || typeof creds !== 'object' || !creds.me) return { keys: [], problem: 'never paired' };
  const rows = [{ key: 'creds', value: JSON.stringify(creds) }];
  for (const [group, entries] of Object.entries(keys ?? {})) {
    const type = KEY_TYPES[group];
    if (!type || !entries || typeof entries !== 'object') continue;
    for (const [id, value] of Object.entries(entries)) {
      if (value !== null && value !== undefined) rows.push({ key: `${type}/${id}`, value: JSON.stringify(value) });
    }
  }
  return { keys: rows };
}
