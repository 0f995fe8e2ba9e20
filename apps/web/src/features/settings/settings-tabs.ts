export type SettingsTab = 'options' | 'schedules' | 'companies' | 'plans' | 'helps';

/**
 * The tabs a user sees (spec part 2 §2.15, §6): Options always; Schedules only
 * while the company's scheduleType is `company`; Companies, Plans and Helps for
 * super users.
 */
export function settingsTabs({ scheduleType, isSuper }: { scheduleType: string; isSuper: boolean }): SettingsTab[] {
  const tabs: SettingsTab[] = ['options'];
  if (scheduleType === 'company') tabs.push('schedules');
  if (isSuper) tabs.push('companies', 'plans', 'helps');
  return tabs;
}
