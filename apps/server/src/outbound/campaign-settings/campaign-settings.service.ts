import type { CampaignSettings, CampaignSettingsBody } from '@atende/shared';
import type { TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { loadCampaignSettings, saveCampaignSettings } from './campaign-settings.repo.js';

export type CampaignSettingsDeps = Pick<Platform, 'db'>;

/** Every key, each missing one at its default. */
export async function showCampaignSettings(deps: CampaignSettingsDeps, scope: TenantScope): Promise<CampaignSettings> {
  return loadCampaignSettings(deps.db, scope);
}

/** Stores the keys the body carries; answers every key after the change. */
export async function updateCampaignSettings(deps: CampaignSettingsDeps, scope: TenantScope, settings: CampaignSettingsBody['settings']): Promise<CampaignSettings> {
  await saveCampaignSettings(deps.db, scope, settings);
  return loadCampaignSettings(deps.db, scope);
}
