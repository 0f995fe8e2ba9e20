import { and, eq, inArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { baileysAuthKeys, messages } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

/** A connection's Baileys session: its company and connection id. */
export interface AuthRef extends TenantScope {
  whatsappId: number;
}

const authRows = (ref: AuthRef) => inTenant(baileysAuthKeys, ref, eq(baileysAuthKeys.whatsappId, ref.whatsappId));

/** One stored auth key's value (`creds`, `<type>/<id>`), or null. */
export async function findAuthKey(db: DbOrTx, ref: AuthRef, key: string): Promise<string | null> {
  const [row] = await db
    .select({ value: baileysAuthKeys.value })
    .from(baileysAuthKeys)
    .where(and(authRows(ref), eq(baileysAuthKeys.key, key)))
    .limit(1);
  return row?.value ?? null;
}

/** The stored values among these keys. */
export async function findAuthKeys(db: DbOrTx, ref: AuthRef, keys: string[]): Promise<{ key: string; value: string }[]> {
  return db
    .select({ key: baileysAuthKeys.key, value: baileysAuthKeys.value })
    .from(baileysAuthKeys)
    .where(and(authRows(ref), inArray(baileysAuthKeys.key, keys)));
}

export async function upsertAuthKeys(db: DbOrTx, ref: AuthRef, rows: { key: string; value: string }[]): Promise<void> {
  if (rows.length === 0) return;
  await db
    .insert(baileysAuthKeys)
    .values(rows.map((row) => ({ companyId: ref.companyId, whatsappId: ref.whatsappId, key: row.key, value: row.value })))
    .onConflictDoUpdate({
      target: [baileysAuthKeys.whatsappId, baileysAuthKeys.key],
      set: { value: sql`excluded.value`, updatedAt: sql`now()` },
    });
}

export async function deleteAuthKeys(db: DbOrTx, ref: AuthRef, keys: string[]): Promise<void> {
  if (keys.length === 0) return;
  await db.delete(baileysAuthKeys).where(and(authRows(ref), inArray(baileysAuthKeys.key, keys)));
}

/** Every key of the session but `keep` (the credentials row), or every key when `keep` is absent. */
export async function deleteAuthState(db: DbOrTx, ref: AuthRef, keep?: string): Promise<void> {
  await db.delete(baileysAuthKeys).where(keep === undefined ? authRows(ref) : and(authRows(ref), sql`${baileysAuthKeys.key} <> ${keep}`));
}

/** A message stored under its WhatsApp id on this connection: its text and side. */
export async function findStoredMessage(db: DbOrTx, ref: AuthRef, externalId: string): Promise<{ body: string; fromMe: boolean } | null> {
  const [row] = await db
    .select({ body: messages.body, fromMe: messages.fromMe })
    .from(messages)
    .where(inTenant(messages, ref, eq(messages.whatsappId, ref.whatsappId), eq(messages.externalId, externalId)))
    .limit(1);
  return row ?? null;
}
