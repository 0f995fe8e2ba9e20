import { DEFAULT_SETTINGS, SETTING_DEFINITIONS, type SettingKey } from '@atende/shared';
import { asc, eq } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { settings } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

export async function listSettings(db: DbOrTx, scope: TenantScope) {
  return db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inTenant(settings, scope))
    .orderBy(asc(settings.key));
}

export async function findSetting(db: DbOrTx, scope: TenantScope, key: string) {
  const [row] = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inTenant(settings, scope, eq(settings.key, key)))
    .limit(1);
  return row ?? null;
}

export async function upsertSetting(db: DbOrTx, scope: TenantScope, key: string, value: string) {
  const [row] = await db
    .insert(settings)
    .values({ companyId: scope.companyId, key, value })
    .onConflictDoUpdate({ target: [settings.companyId, settings.key], set: { value, updatedAt: new Date() } })
    .returning({ key: settings.key, value: settings.value });
  return row;
}

/** A new company starts with the spec's defaults; existing values are never overwritten. */
export async function insertDefaultSettings(db: DbOrTx, scope: TenantScope, overrides: Record<string, string> = {}) {
  await db
    .insert(settings)
    .values(DEFAULT_SETTINGS.map(({ key, value }) => ({ companyId: scope.companyId, key, value: overrides[key] ?? value })))
    .onConflictDoNothing();
}

/** A setting's value, or its default when the company never set it. */
export async function loadSetting(db: DbOrTx, scope: TenantScope, key: SettingKey): Promise<string> {
  return (await findSetting(db, scope, key))?.value ?? SETTING_DEFINITIONS[key].default;
}
