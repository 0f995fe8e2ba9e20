import type { CloudApiConfigBody } from '@atende/shared';
import { z } from 'zod';
import type { WhatsappRow } from '../../platform/db/schema.js';
import type { SecretBox } from '../../platform/crypto/secret-box.js';

/** The public path Meta posts to (one for every Cloud API connection: the phone number id in the payload picks the connection). */
export const CLOUD_API_WEBHOOK_PATH = '/cloud-api/webhook';

/** Everything needed to talk to the Graph API for one connection. */
export interface CloudApiSettings {
  phoneNumberId: string;
  wabaId: string;
  verifyToken: string;
  /** Without a trailing slash. */
  graphApiBaseUrl: string;
  accessToken: string;
  appSecret: string;
}

const StoredSecrets = z.object({ accessToken: z.string().default(''), appSecret: z.string().default('') });
type StoredSecrets = z.infer<typeof StoredSecrets>;

/** The connection's access token and app secret in clear ('' when absent or unreadable). */
export function openSecrets(row: Pick<WhatsappRow, 'providerSecrets'>, secrets: SecretBox): StoredSecrets {
  if (!row.providerSecrets) return { accessToken: '', appSecret: '' };
  try {
    return StoredSecrets.parse(JSON.parse(secrets.open(row.providerSecrets)));
  } catch {
    // A secret sealed under another ENCRYPTION_KEY is unusable: treat it as not configured.
    return { accessToken: '', appSecret: '' };
  }
}

export function readCloudApiSettings(row: Pick<WhatsappRow, 'providerConfig' | 'providerSecrets'>, secrets: SecretBox, defaultBaseUrl: string): CloudApiSettings {
  const config = row.providerConfig;
  const opened = openSecrets(row, secrets);
  return {
    phoneNumberId: config.phoneNumberId ?? '',
    wabaId: config.wabaId ?? '',
    verifyToken: config.verifyToken ?? '',
    graphApiBaseUrl: (config.graphApiBaseUrl || defaultBaseUrl).replace(/\/+$/, ''),
    accessToken: opened.accessToken,
    appSecret: opened.appSecret,
  };
}

/**
 * The columns a Cloud API configuration is stored in: plain settings in
 * `provider_config`, the access token and app secret sealed in
 * `provider_secrets`. An empty secret on update keeps the stored one.
 */
export function cloudApiColumns(
  input: CloudApiConfigBody,
  previous: Pick<WhatsappRow, 'providerConfig' | 'providerSecrets'> | null,
  secrets: SecretBox,
): { providerConfig: Record<string, string>; providerSecrets: string } {
  const kept = previous ? openSecrets(previous, secrets) : { accessToken: '', appSecret: '' };
  const sealed = {
    accessToken: input.accessToken || kept.accessToken,
    appSecret: input.appSecret || kept.appSecret,
  };
  return {
    providerConfig: {
      ...(previous?.providerConfig ?? {}),
      phoneNumberId: input.phoneNumberId,
      wabaId: input.wabaId,
      verifyToken: input.verifyToken,
      graphApiBaseUrl: input.graphApiBaseUrl ?? previous?.providerConfig.graphApiBaseUrl ?? '',
    },
    providerSecrets: secrets.seal(JSON.stringify(sealed)),
  };
}

export function isCloudApiConfigured(settings: CloudApiSettings): boolean {
  return Boolean(settings.phoneNumberId && settings.wabaId && settings.accessToken && settings.appSecret && settings.verifyToken);
}
