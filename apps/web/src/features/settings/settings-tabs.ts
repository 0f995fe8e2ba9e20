export type SettingsTab = 'options' | 'schedules' | 'api' | 'webhooks' | 'companies' | 'plans' | 'helps';

/**
 * The tabs a user sees (spec part 2 §2.15, §6): Options always; Schedules only
 * while the company's scheduleType is `company`; API (the company's API keys,
 * issue 34) and Webhooks (its event webhooks, issue 34) for admins; Companies, Plans and Helps for super users.
 */
export function settingsTabs({ scheduleType, isSuper, isAdmin = false }: { scheduleType: string; isSuper: boolean; isAdmin?: boolean }): SettingsTab[] {
  const tabs: SettingsTab[] = ['options'];
  if (scheduleType === 'company') tabs.push('schedules');
  if (isAdmin) tabs.push('api', 'webhooks');
  if (isSuper) tabs.push('companies', 'plans', 'helps');
  return tabs;
}
