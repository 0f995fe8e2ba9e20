import { CHATBOT_TEXT_KEYS, isAllowedSettingValue, isPlatformSetting, isSettingKey, maySeeSetting, SETTING_DEFINITIONS, settingVisibility } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import type { Platform } from '../../platform/platform.js';
import { openSecretSetting, presentSetting, type StoredSetting } from './settings.presenter.js';
import { findSetting, listSettings, upsertSetting } from './settings.repo.js';

/** The settings module's ports: the database, the domain events and the box that seals secret values. */
export type SettingsDeps = Pick<Platform, 'db' | 'events' | 'secrets'>;

/** The company's settings as stored (`key` keeps that one only); the presenter drops those the caller may not read. */
export async function listCompanySettings(deps: SettingsDeps, ctx: RequestContext, key?: string): Promise<StoredSetting[]> {
  const all = await listSettings(deps.db, ctx);
  return key ? all.filter((setting) => setting.key === key) : all;
}

/** One setting; one the caller may not read answers as if it did not exist. */
export async function showSetting(deps: SettingsDeps, ctx: RequestContext, key: string): Promise<StoredSetting> {
  const stored = await findSetting(deps.db, ctx, key);
  if (!stored || !maySeeSetting(stored.key, ctx.user.profile)) throw new AppError('ERR_NO_SETTING_FOUND');
  return stored;
}

/**
 * Admins change their company's settings, super users the platform's too; a value
 * outside the setting's list is refused. A secret is stored sealed; its masked value
 * sent back unchanged keeps the stored secret. Answers the setting as the caller is
 * shown it (a secret masked), which is also what the company's screens are told.
 */
export async function updateSetting(deps: SettingsDeps, ctx: RequestContext, key: string, value: string): Promise<StoredSetting> {
  requireAdmin(ctx);
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
  if (isPlatformSetting(key)) requireSuper(ctx);
  if (!isAllowedSettingValue(key, value)) {
    const allowed = SETTING_DEFINITIONS[key].values;
    throw new AppError('ERR_VALIDATION', undefined, {
      message: `Invalid value for ${key}`,
      fields: { value: [allowed ? `Must be one of: ${allowed.join(', ')}` : 'Too Long!'] },
    });
  }
  // The chatbot's menu words are sent to customers through the message variables too.
  if ((CHATBOT_TEXT_KEYS as readonly string[]).includes(key)) assertKnownVariables({ value });
  let stored = value;
  if (settingVisibility(key) === 'secret') {
    const current = await findSetting(deps.db, ctx, key);
    const shown = current && presentSetting(current, ctx.user.profile, deps.secrets);
    if (current && shown && value !== '' && value === shown.value) {
      // The masked value sent back unchanged keeps the stored secret (sealed now if an older row held it plain).
      const plain = openSecretSetting(current.value, deps.secrets);
      stored = plain ? deps.secrets.seal(plain) : current.value;
    } else {
      stored = value ? deps.secrets.seal(value) : '';
    }
  }
  const row = await upsertSetting(deps.db, ctx, key, stored);
  const setting = row && presentSetting(row, ctx.user.profile, deps.secrets);
  if (!setting) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  deps.events.emit('setting.updated', { companyId: ctx.companyId, setting });
  return setting;
}
