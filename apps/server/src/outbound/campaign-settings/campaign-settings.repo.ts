import { CAMPAIGN_SETTINGS_DEFAULTS, type CampaignSettingKey, type CampaignSettings, type CampaignSettingsBody } from '@atende/shared';
import { eq, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { campaignSettings } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { DEFAULT_MAX_PER_SECOND } from '../pacing.js';
import { inTenant } from '../../platform/db/tenant.js';

function defaults(): CampaignSettings {
  return { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [], sendCaps: { ...DEFAULT_MAX_PER_SECOND } };
}

function asNumber(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0 ? value : fallback;
}

/** The company's campaign settings, each missing key at its default (spec part 2 §9: 20/20/60). */
export async function loadCampaignSettings(db: DbOrTx, scope: TenantScope): Promise<CampaignSettings> {
  const rows = await db
    .select({ key: campaignSettings.key, value: campaignSettings.value })
    .from(campaignSettings)
    .where(inTenant(campaignSettings, scope));
  const result = defaults();
  for (const { key, value } of rows) {
    if (key === 'messageInterval' || key === 'longerIntervalAfter' || key === 'greaterInterval') result[key] = asNumber(value, result[key]);
    else if (key === 'variables' && Array.isArray(value)) {
      result.variables = value.filter(
        (v): v is { key: string; value: string } => typeof v === 'object' && v !== null && typeof v.key === 'string' && typeof v.value === 'string',
      );
    } else if (key === 'sendCaps' && typeof value === 'object' && value !== null) {
      const caps = value as Record<string, unknown>;
      for (const kind of Object.keys(result.sendCaps) as (keyof CampaignSettings['sendCaps'])[]) {
        result.sendCaps[kind] = asNumber(caps[kind], result.sendCaps[kind]);
      }
    }
  }
  return result;
}

/** Stores each key the body carries (an upsert per key); the others keep their value. */
export async function saveCampaignSettings(db: DbOrTx, scope: TenantScope, body: CampaignSettingsBody['settings']): Promise<void> {
  const entries = Object.entries(body).filter(([, value]) => value !== undefined) as [CampaignSettingKey, unknown][];
  for (const [key, value] of entries) {
    await db
      .insert(campaignSettings)
      .values({ companyId: scope.companyId, key, value })
      .onConflictDoUpdate({
        target: [campaignSettings.companyId, campaignSettings.key],
        set: { value: sql`excluded.value`, updatedAt: new Date() },
        where: inTenant(campaignSettings, scope, eq(campaignSettings.key, key)),
      });
  }
}
