import { maySeeSetting, settingVisibility, type PresentedSetting } from '@atende/shared';
import { maskSecret, type SecretBox } from '../../platform/crypto/secret-box.js';

/** A setting as stored, and as answered (`PresentedSettingSchema`). */
export type StoredSetting = PresentedSetting;

/**
 * The plain value of a stored secret. Rows written before secrets were sealed
 * hold the plain text; they are sealed at their next save.
 */
export function openSecretSetting(stored: string, secrets: SecretBox): string {
  if (!stored) return '';
  try {
    return secrets.open(stored);
  } catch {
    return stored.startsWith('v1.') ? '' : stored;
  }
}

/** A setting as this reader may see it: secrets masked for everyone, null when not visible. */
export function presentSetting(setting: StoredSetting, profile: string, secrets: SecretBox): StoredSetting | null {
  if (!maySeeSetting(setting.key, profile)) return null;
  return presentVisibleSetting(setting, secrets);
}

/** A setting the reader may see (the caller checked it): a secret's value masked. */
export function presentVisibleSetting(setting: StoredSetting, secrets: SecretBox): StoredSetting {
  if (settingVisibility(setting.key) !== 'secret') return setting;
  const plain = openSecretSetting(setting.value, secrets);
  // A value sealed under another ENCRYPTION_KEY cannot be read: show that something is stored.
  return { key: setting.key, value: plain ? maskSecret(plain) : setting.value ? '••••' : '' };
}

export function presentSettings(list: StoredSetting[], profile: string, secrets: SecretBox): StoredSetting[] {
  return list.flatMap((setting) => presentSetting(setting, profile, secrets) ?? []);
}
