import { SETTING_DEFINITIONS, type SettingKey } from '@atende/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export interface Setting {
  key: string;
  value: string;
}

const settingsKey = ['settings'] as const;

/** The company's settings (`GET /settings`), kept live by `company-{id}-settings`. */
export function useSettings() {
  const { api } = useSession();
  return useQuery({ queryKey: settingsKey, queryFn: () => api.get<Setting[]>('/settings') });
}

/** A setting's value, or its default when the company has none stored. */
export function settingValue(list: readonly Setting[] | undefined, key: SettingKey): string {
  return list?.find((setting) => setting.key === key)?.value ?? SETTING_DEFINITIONS[key].default;
}

/** The current `scheduleType` (disabled | queue | company) that decides which hours editor exists. */
export function useScheduleType(): string {
  const settings = useSettings();
  const { user } = useSession();
  return settingValue(settings.data ?? user?.company?.settings, 'scheduleType');
}

export function replaceSetting(list: readonly Setting[], setting: Setting): Setting[] {
  return list.some((s) => s.key === setting.key) ? list.map((s) => (s.key === setting.key ? setting : s)) : [...list, setting];
}

function cacheSetting(queryClient: QueryClient, setting: Setting): void {
  queryClient.setQueryData<Setting[]>(settingsKey, (list) => (list ? replaceSetting(list, setting) : list));
}

/** Another admin's change shows up at once (`company-{id}-settings`, `{action:'update', setting}`). */
export function useSettingEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<{ action: string; setting?: Setting }>('settings', (payload) => {
    if (payload.setting) cacheSetting(queryClient, payload.setting);
  });
}

/**
 * Saves one setting (`PUT /settings/:key`) and puts the answer in the cache.
 * `pending` holds, per key, the value whose request is running: the field shows
 * it and stays disabled until the server answers. Rejects as the request does.
 */
export function useSaveSetting() {
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [pending, setPending] = useState<Partial<Record<SettingKey, string>>>({});
  const save = useCallback(
    async (key: SettingKey, value: string): Promise<Setting> => {
      setPending((current) => ({ ...current, [key]: value }));
      try {
        const setting = await api.put<Setting>(`/settings/${key}`, { key, value });
        cacheSetting(queryClient, setting);
        return setting;
      } finally {
        setPending((current) => {
          const next = { ...current };
          delete next[key];
          return next;
        });
      }
    },
    [api, queryClient],
  );
  return { pending, save };
}
