import { BufferJSON, initAuthCreds, proto, type AuthenticationCreds, type AuthenticationState, type SignalDataSet, type SignalDataTypeMap } from 'baileys';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { baileysAuthKeys } from '../../platform/db/schema.js';
import { inTenant } from '../../platform/db/tenant.js';

/** The row holding the account credentials; signal keys are `<type>/<id>`. */
export const CREDS_KEY = 'creds';

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
  const scope = inTenant(baileysAuthKeys, ref, eq(baileysAuthKeys.whatsappId, ref.whatsappId));
  const [stored] = await db
    .select({ value: baileysAuthKeys.value })
    .from(baileysAuthKeys)
    .where(and(scope, eq(baileysAuthKeys.key, CREDS_KEY)))
    .limit(1);
  const creds: AuthenticationCreds = stored ? (decode(stored.value) as AuthenticationCreds) : initAuthCreds();

  async function writeRows(rows: { key: string; value: string }[], removed: string[]): Promise<void> {
    await db.transaction(async (tx) => {
      if (removed.length > 0) await tx.delete(baileysAuthKeys).where(and(scope, inArray(baileysAuthKeys.key, removed)));
      if (rows.length > 0) {
        await tx
          .insert(baileysAuthKeys)
          .values(rows.map((row) => ({ companyId: ref.companyId, whatsappId: ref.whatsappId, key: row.key, value: row.value })))
          .onConflictDoUpdate({
            target: [baileysAuthKeys.whatsappId, baileysAuthKeys.key],
            set: { value: sql`excluded.value`, updatedAt: sql`now()` },
          });
      }
    });
  }

  return {
    state: {
      creds,
      keys: {
        async get<T extends keyof SignalDataTypeMap>(type: T, ids: string[]) {
          const result: { [id: string]: SignalDataTypeMap[T] } = {};
          if (ids.length === 0) return result;
          const rows = await db
            .select({ key: baileysAuthKeys.key, value: baileysAuthKeys.value })
            .from(baileysAuthKeys)
            .where(and(scope, inArray(baileysAuthKeys.key, ids.map((id) => keyOf(type, id)))));
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
          await db.delete(baileysAuthKeys).where(and(scope, sql`${baileysAuthKeys.key} <> ${CREDS_KEY}`));
        },
      },
    },
    saveCreds: () => writeRows([{ key: CREDS_KEY, value: encode(creds) }], []),
  };
}

/** Forgets the session: the next start shows a new QR code. */
export async function clearAuthState(db: DbOrTx, ref: SessionRef): Promise<void> {
  await db.delete(baileysAuthKeys).where(inTenant(baileysAuthKeys, ref, eq(baileysAuthKeys.whatsappId, ref.whatsappId)));
}

/** Whether the connection was paired (its credentials name an account), so a restart resumes without a QR code. */
export async function hasPairedCreds(db: DbOrTx, ref: SessionRef): Promise<boolean> {
  const [row] = await db
    .select({ value: baileysAuthKeys.value })
    .from(baileysAuthKeys)
    .where(inTenant(baileysAuthKeys, ref, eq(baileysAuthKeys.whatsappId, ref.whatsappId), eq(baileysAuthKeys.key, CREDS_KEY)))
    .limit(1);
  if (!row) return false;
  const creds = decode(row.value) as Partial<AuthenticationCreds>;
  return Boolean(creds.me?.id);
}
