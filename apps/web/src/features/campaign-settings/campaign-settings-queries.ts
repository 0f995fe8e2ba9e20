import { CAMPAIGN_SETTINGS_DEFAULTS, type CampaignSettingEntry, type CampaignSettings } from '@atende/shared';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

export const CAMPAIGN_SETTINGS_KEY = ['campaign-settings'] as const;

/** `GET /campaign-settings` answers key/JSON-value pairs (spec part 2 §3); read into one object. */
export function readSettings(entries: CampaignSettingEntry[]): CampaignSettings {
  const result: CampaignSettings = { ...CAMPAIGN_SETTINGS_DEFAULTS, variables: [], sendCaps: { baileys: 1, 'cloud-api': 0, sandbox: 0 } };
  for (const { key, value } of entries) {
    try {
      const parsed: unknown = JSON.parse(value);
      if ((key === 'messageInterval' || key === 'longerIntervalAfter' || key === 'greaterInterval') && typeof parsed === 'number') result[key] = parsed;
      if (key === 'variables' && Array.isArray(parsed)) result.variables = parsed as CampaignSettings['variables'];
      if (key === 'sendCaps' && parsed && typeof parsed === 'object') result.sendCaps = { ...result.sendCaps, ...(parsed as Partial<CampaignSettings['sendCaps']>) };
    } catch {
      // A value that is not JSON keeps the default.
    }
  }
  return result;
}

/** The stored campaign settings, as the server answers them (the settings page and the campaign dialog share the cache). */
export function useCampaignSettingEntries(enabled = true) {
  const { api } = useSession();
  return useQuery({ queryKey: CAMPAIGN_SETTINGS_KEY, queryFn: () => api.get<CampaignSettingEntry[]>('/campaign-settings'), enabled });
}
