import { CAMPAIGN_SETTING_KEYS, type CampaignSettingEntry, type CampaignSettings } from '@atende/shared';

/** The spec's shape: one entry per key, its value as JSON text. */
export function presentCampaignSettings(settings: CampaignSettings): CampaignSettingEntry[] {
  return CAMPAIGN_SETTING_KEYS.map((key) => ({ key, value: JSON.stringify(settings[key]) }));
}
