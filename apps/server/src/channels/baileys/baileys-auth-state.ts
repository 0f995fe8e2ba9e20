import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataSet, type SignalDataTypeMap } from 'baileys';
import type { DbOrTx } from '../../platform/db/client.js';
import { deleteAuthKeys, deleteAuthState, findAuthKey, findAuthKeys, upsertAuthKeys } from './baileys.repo.js';

/** The row holding the account credentials; signal keys are `<type>/<id>`. */
const CREDS_KEY = 'creds';

export interface SessionRef {
  companyId: number;
  whatsappId: number;
}

export interface DatabaseAuthState {
  state: AuthenticationState;
  /** Writes the credentials row (Baileys mutates `state.creds` in place before `creds.update`). */
  saveCreds(): Promise<void>;
}

const keyOf = (type: string, id: string) => `${type}/${id}`;
const encode = (value: unknown) => JSON.stringify(value, BufferJSON.replacer);
const decode = (text: string): unknown => JSON.parse(text, BufferJSON.reviver) as unknown;

/**
 * Baileys' auth state as key/value rows in `baileys_auth_keys`: the credentials in
 * one row, every signal key (pre-keys, sessions, sender keys, app-state keys, LID
 * mappings) in its own. A change rewrites only the rows it touches, and one
 * `set` call (Baileys batches a whole key transaction into one) commits in one
 * database transaction, so a crash never leaves half a key update behind.
 */
export async function useDatabaseAuthState(db: DbOrTx, ref: SessionRef): Promise<DatabaseAuthState> {
  const stored = await findAuthKey(db, ref, CREDS_KEY);
  const creds: AuthenticationCreds = stored !== null ? (decode(stored) as AuthenticationCreds) : initAuthCreds();

  async function writeRows(rows: { key: string; value: string }[], removed: string[]): Promise<void> {
    await db.transaction(async (tx) => {
      await deleteAuthKeys(tx, ref, removed);
      await upsertAuthKeys(tx, ref, rows);
    });
  }

  return {
    state: {
      creds,
      keys: {
        async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
          const result: { [id: string]: SignalDataTypeMap[T] } = {};
          if (ids.length === 0) return result;
          const rows = await findAuthKeys(db, ref, ids.map((id) => keyOf(type, id)));
          const byKey = new Map(rows.map((row) => [row.key, row.value]));
          for (const id of ids) {
            const text = byKey.get(keyOf(type, id));
            if (text === undefined) continue;
            let value = decode(text);
            // App-state keys are protobuf objects; Baileys calls their methods.
            if (type === 'app-state-sync-key' && value) value = proto.Message.AppStateSyncKeyData.fromObject(value as object);
            result[id] = value as SignalDataTypeMap[T];
          }
          return result;
        },
        async set(data: SignalDataSet) {
          const rows: { key: string; value: string }[] = [];
          const removed: string[] = [];
          for (const [type, entries] of Object.entries(data)) {
            for (const [id, value] of Object.entries(entries ?? {})) {
              if (value === null || value === undefined) removed.push(keyOf(type, id));
              else rows.push({ key: keyOf(type, id), value: encode(value) });
            }
          }
          await writeRows(rows, removed);
        },
        async clear() {
          await deleteAuthState(db, ref, CREDS_KEY);
        },
      },
    },
    saveCreds: () => writeRows([{ key: CREDS_KEY, value: encode(creds) }], []),
  };
}

/** Forgets the session: the next start shows a new QR code. */
export async function clearAuthState(db: DbOrTx, ref: SessionRef): Promise<void> {
  await deleteAuthState(db, ref);
}

/** Whether the connection was paired (its credentials name an account), so a restart resumes without a QR code. */
export async function hasPairedCreds(db: DbOrTx, ref: SessionRef): Promise<boolean> {
  const stored = await findAuthKey(db, ref, CREDS_KEY);
  if (stored === null) return false;
  const creds = decode(stored) as Partial<AuthenticationCreds>;
  return Boolean(creds.me?.id);
}
