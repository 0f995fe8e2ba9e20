import { SETTING_MAX_LENGTH } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { CHOICE_SETTINGS, settingChoices, shownSettingValue, textSettingValue } from './setting-options';
import { replaceSetting, settingValue } from './settings-queries';
import { settingsTabs } from './settings-tabs';

describe('settings options', () => {
  it("lists the spec's company options, with their values (part 1 §9, part 2 §5)", () => {
    expect(CHOICE_SETTINGS).toEqual([
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
      'requireTwoFactor',
    ]);
    for (const key of ['userRating', 'call', 'CheckMsgIsGroup', 'sendGreetingAccepted', 'sendMsgTransfTicket', 'sendGreetingMessageOneQueues', 'userCreation', 'sideMenu', 'requireTwoFactor'] as const) {
      expect(settingChoices(key)).toEqual(['enabled', 'disabled']);
    }
    expect(settingChoices('scheduleType')).toEqual(['disabled', 'queue', 'company']);
    expect(settingChoices('chatBotType')).toEqual(['text']);
    expect(settingChoices('language')).toEqual(['pt', 'en', 'es']);
  });

  it('shows the value being saved, else the stored one, else the default', () => {
    const stored = [{ key: 'userRating', value: 'enabled' }];
    expect(shownSettingValue(stored, 'userRating', {})).toBe('enabled');
    expect(shownSettingValue(stored, 'userRating', { userRating: 'disabled' })).toBe('disabled');
    // Not stored: the defaults a new company starts with.
    expect(shownSettingValue(stored, 'scheduleType', {})).toBe('disabled');
    expect(shownSettingValue(undefined, 'call', {})).toBe('enabled');
    expect(settingValue([], 'asaas')).toBe('');
  });

  it('puts a saved setting in place of the old one, or adds it', () => {
    const list = [
      { key: 'call', value: 'enabled' },
      { key: 'userRating', value: 'disabled' },
    ];
    expect(replaceSetting(list, { key: 'call', value: 'disabled' })).toEqual([
      { key: 'call', value: 'disabled' },
      { key: 'userRating', value: 'disabled' },
    ]);
    expect(replaceSetting(list, { key: 'sideMenu', value: 'disabled' })).toHaveLength(3);
  });

  it('trims the token and refuses one longer than the server keeps', () => {
    expect(textSettingValue('  abc  ')).toBe('abc');
    expect(textSettingValue('')).toBe('');
    expect(textSettingValue('x'.repeat(SETTING_MAX_LENGTH))).toHaveLength(SETTING_MAX_LENGTH);
    expect(textSettingValue('x'.repeat(SETTING_MAX_LENGTH + 1))).toBeNull();
  });
});

describe('settings tabs', () => {
  it('offers Schedules only while scheduleType is company, Companies, Plans and Helps only to super users', () => {
    expect(settingsTabs({ scheduleType: 'disabled', isSuper: false })).toEqual(['options']);
    expect(settingsTabs({ scheduleType: 'queue', isSuper: false })).toEqual(['options']);
    expect(settingsTabs({ scheduleType: 'company', isSuper: false })).toEqual(['options', 'schedules']);
    expect(settingsTabs({ scheduleType: 'company', isSuper: true })).toEqual(['options', 'schedules', 'companies', 'plans', 'helps']);
    expect(settingsTabs({ scheduleType: 'queue', isSuper: true })).toEqual(['options', 'companies', 'plans', 'helps']);
  });

  it('offers API and Webhooks to admins only', () => {
    expect(settingsTabs({ scheduleType: 'disabled', isSuper: false, isAdmin: true })).toEqual(['options', 'api', 'webhooks']);
    expect(settingsTabs({ scheduleType: 'company', isSuper: true, isAdmin: true })).toEqual(['options', 'schedules', 'api', 'webhooks', 'companies', 'plans', 'helps']);
  });
});
