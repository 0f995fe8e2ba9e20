import { CHATBOT_TEXT_KEYS, isAllowedSettingValue, isPlatformSetting, isSettingKey, maySeeSetting, SETTING_ALIASES, SETTING_DEFINITIONS, SETTING_KEYS, settingVisibility } from '@atende/shared';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import { MAIN_COMPANY_ID } from '../companies/companies.service.js';
import { assertKnownVariables } from '../messages/message-variables.js';
import type { Platform } from '../../platform/platform.js';
import { openSecretSetting, presentSetting, type StoredSetting } from './settings.presenter.js';
import { findSetting, listSettings, upsertSetting } from './settings.repo.js';

/** The settings module's ports: the database, the domain events and the box that seals secret values. */
export type SettingsDeps = Pick<Platform, 'db' | 'events' | 'secrets'>;

const PLATFORM_SCOPE: TenantScope = { companyId: MAIN_COMPANY_ID };

/** Where a key lives: the platform's in the main company, the others in the caller's. */
const scopeOf = (ctx: RequestContext, key: string): TenantScope => (isPlatformSetting(key) ? PLATFORM_SCOPE : ctx);

/**
 * The company's settings (`key` keeps that one only); the presenter drops those the caller
 * may not read. A key never stored (one added after the company was made) has its default;
 * a platform key the main company's value; whaticket v6's sign-up switches
 * (`allowregister`, `viewregister`) are listed as the `publicSignup` they name.
 */
export async function listCompanySettings(deps: SettingsDeps, ctx: RequestContext, key?: string): Promise<StoredSetting[]> {
  const own = await listSettings(deps.db, ctx);
  const platform = ctx.companyId === MAIN_COMPANY_ID ? own : await listSettings(deps.db, PLATFORM_SCOPE);
  // `upload.*` name stored files (storeSettingUpload), not settings anyone edits.
  const values = new Map(own.filter((setting) => !isPlatformSetting(setting.key) && !setting.key.startsWith('upload.')).map((setting) => [setting.key, setting.value]));
  for (const setting of platform) if (isPlatformSetting(setting.key)) values.set(setting.key, setting.value);
  for (const known of SETTING_KEYS) if (!values.has(known)) values.set(known, SETTING_DEFINITIONS[known].default);
  for (const [alias, target] of Object.entries(SETTING_ALIASES)) values.set(alias, values.get(target) ?? SETTING_DEFINITIONS[target].default);
  const all = [...values].map(([k, value]) => ({ key: k, value })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  return key ? all.filter((setting) => setting.key === key) : all;
}

/** One setting (a known key never stored: its default; a platform key: the main company's); one the caller may not read answers as if it did not exist. */
export async function showSetting(deps: SettingsDeps, ctx: RequestContext, key: string): Promise<StoredSetting> {
  const target = SETTING_ALIASES[key] ?? key;
  const found = await findSetting(deps.db, scopeOf(ctx, target), target);
  const stored = found ?? (isSettingKey(target) ? { key: target, value: SETTING_DEFINITIONS[target].default } : null);
  if (!stored || !maySeeSetting(stored.key, ctx.user.profile)) throw new AppError('ERR_NO_SETTING_FOUND');
  return { key, value: stored.value };
}

/**
 * Admins change their company's settings, super users the platform's too; a value
 * outside the setting's list is refused. A secret is stored sealed; its masked value
 * sent back unchanged keeps the stored secret. Answers the setting as the caller is
 * shown it (a secret masked), which is also what the company's screens are told.
 */
export async function updateSetting(deps: SettingsDeps, ctx: RequestContext, asked: string, value: string): Promise<StoredSetting> {
  requireAdmin(ctx);
  const key = SETTING_ALIASES[asked] ?? asked;
  if (!isSettingKey(key)) throw new AppError('ERR_NO_SETTING_FOUND');
  if (isPlatformSetting(key)) requireSuper(ctx);
  const scope = scopeOf(ctx, key);
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
  const current = await findSetting(deps.db, scope, key);
  const secret = settingVisibility(key) === 'secret';
  if (secret) {
    const shown = current && presentSetting(current, ctx.user.profile, deps.secrets);
    if (current && shown && value !== '' && value === shown.value) {
      // The masked value sent back unchanged keeps the stored secret (sealed now if an older row held it plain).
      const plain = openSecretSetting(current.value, deps.secrets);
      stored = plain ? deps.secrets.seal(plain) : current.value;
    } else {
      stored = value ? deps.secrets.seal(value) : '';
    }
  }
  const row = await deps.db.transaction(async (tx) => {
    const saved = await upsertSetting(tx, scope, key, stored);
    // A secret (an API token, a payment key) is recorded as changed, never its value.
    const change = secret ? { changed: current?.value !== stored } : { from: current?.value ?? null, to: value };
    await recordAudit(tx, ctx, { action: 'setting.updated', entityId: key, changes: { [key]: change }, companyId: scope.companyId });
    return saved;
  });
  const setting = row && presentSetting(row, ctx.user.profile, deps.secrets);
  if (!setting) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  deps.events.emit('setting.updated', { companyId: scope.companyId, setting });
  return asked === key ? setting : { key: asked, value: setting.value };
}

/** Atende's name as an image: the logo a whaticket v6 page shows until a super user uploads one. */
const DEFAULT_LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="240" height="64" viewBox="0 0 240 64" role="img" aria-label="Atende">' +
  '<rect width="240" height="64" rx="12" fill="#1f6feb"/>' +
  '<text x="120" y="42" text-anchor="middle" font-family="Arial, Helvetica, sans-serif" font-size="30" font-weight="700" fill="#ffffff">Atende</text></svg>';

const IMAGE_TYPES: Record<string, string> = { png: 'image/png', jpg: 'image/jpeg', jpeg: 'image/jpeg', gif: 'image/gif', webp: 'image/webp', svg: 'image/svg+xml', ico: 'image/x-icon' };

/**
 * whaticket v6's logo addresses (its backend serves its `public/` folder as files):
 * `/public/logotipos/<ref>.<ext>` names one of the platform's uploaded images, a company's
 * `logo.*` the platform's logo (Atende's branding is the platform's, the same for every
 * company, so the company in the address reveals nothing); without an upload, Atende's own.
 */
export async function v6LogoFile(deps: SettingUploadDeps, file: string): Promise<{ type: string; data: Buffer | string }> {
  const stem = file.replace(/\.[a-z]+$/i, '').toLowerCase();
  const ref = stem === 'logo' ? 'logoLight' : (V6_MEDIA_REFS as readonly string[]).includes(stem) ? stem : null;
  const stored = ref ? (await findSetting(deps.db, PLATFORM_SCOPE, `upload.${ref}`))?.value : undefined;
  if (stored) {
    try {
      const data = await deps.media.read(stored);
      return { type: IMAGE_TYPES[stored.split('.').pop()?.toLowerCase() ?? ''] ?? 'application/octet-stream', data };
    } catch {
      // A file gone from the storage (or a storage that does not answer) shows the default rather than a broken image.
    }
  }
  return { type: 'image/svg+xml', data: DEFAULT_LOGO_SVG };
}

/** The images whaticket v6's settings page uploads by `ref` (`POST /settings/media-upload?ref=`). */
export const V6_MEDIA_REFS = ['signup', 'login', 'interno', 'logo_w', 'favicon'] as const;
/** Files kept for whaticket v6's screens: those images, the logos and the Gerencianet certificate. */
export type V6UploadRef = (typeof V6_MEDIA_REFS)[number] | 'logoLight' | 'logoDark' | 'gerencianetCert';

export type SettingUploadDeps = SettingsDeps & Pick<Platform, 'media'>;

/**
 * `POST /settings/media-upload?ref=…`, `/settings/logo` and `/settings/gerencianet-cert-upload` (whaticket v6, super
 * users): the file is stored in the platform's (main company's) media and named by the platform
 * setting `upload.<ref>`, a new one replacing the old. Atende's own screens do not use them
 * (docs/architecture.md, "The whaticket v6 web client"); the certificate's file is never served.
 */
export async function storeSettingUpload(deps: SettingUploadDeps, ctx: RequestContext, ref: V6UploadRef, readFile: () => Promise<{ data: Buffer; fileName: string; mimeType: string }>): Promise<{ key: string; name: string }> {
  requireAdmin(ctx);
  requireSuper(ctx);
  const file = await readFile();
  if (ref === 'gerencianetCert' ? !/\.p12$/i.test(file.fileName) : !file.mimeType.startsWith('image/')) {
    throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['validation.fileType'] } });
  }
  const key = `upload.${ref}`;
  const previous = await findSetting(deps.db, PLATFORM_SCOPE, key);
  const stored = await deps.media.save(PLATFORM_SCOPE, file);
  await deps.db.transaction(async (tx) => {
    await upsertSetting(tx, PLATFORM_SCOPE, key, stored.path);
    await recordAudit(tx, ctx, { action: 'setting.updated', entityId: key, changes: { [key]: { to: stored.name } }, companyId: PLATFORM_SCOPE.companyId });
  });
  if (previous?.value) await deps.media.remove(PLATFORM_SCOPE, previous.value);
  return { key, name: stored.name };
}
