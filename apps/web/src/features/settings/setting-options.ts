import { SETTING_DEFINITIONS, SETTING_MAX_LENGTH, type SettingKey } from '@atende/shared';
import { settingValue, type Setting } from './settings-queries';

/**
 * The company options of the Options tab, in the spec's order (part 1 §9,
 * part 2 §5): each is a choice among its allowed values. campaignsEnabled is a
 * setting too, but the spec makes it a field of the company (Companies tab).
 */
export const CHOICE_SETTINGS = [
  'userRating',
  'scheduleType',
  'call',
  'CheckMsgIsGroup',
  'chatBotType',
  'sendGreetingAccepted',
  'sendMsgTransfTicket',
  'sendGreetingMessageOneQueues',
  'userCreation',
  'sideMenu',
  'language',
  // two-factor sign-in (issue 35): users without a second factor can only set one up
  'requireTwoFactor',
] as const satisfies readonly SettingKey[];

/**
 * Options of the platform rather than of the company (public sign-up, revealing an
 * unknown e-mail at password reset): read from the main company and changed by
 * super users only (the server answers 403 to anyone else), so only they see them.
 * The platform keys kept for the whaticket v6 client's screens are not offered here.
 */
export const PLATFORM_CHOICE_SETTINGS = ['publicSignup', 'passwordResetNotFound'] as const satisfies readonly SettingKey[];
export type ChoiceSetting = (typeof CHOICE_SETTINGS)[number] | (typeof PLATFORM_CHOICE_SETTINGS)[number];

/** The values a choice offers, as the server accepts them (`PUT /settings/:key`). */
export function settingChoices(key: ChoiceSetting): readonly string[] {
  return SETTING_DEFINITIONS[key].values;
}

/**
 * What a field shows: the value being saved while its request runs (so the
 * choice does not jump back meanwhile), else the stored one, else the default.
 */
export function shownSettingValue(list: readonly Setting[] | undefined, key: SettingKey, pending: Partial<Record<SettingKey, string>>): string {
  return pending[key] ?? settingValue(list, key);
}

/** A free-text value is trimmed and capped as the server caps it; `null` when too long. */
export function textSettingValue(input: string): string | null {
  const value = input.trim();
  return value.length > SETTING_MAX_LENGTH ? null : value;
}
