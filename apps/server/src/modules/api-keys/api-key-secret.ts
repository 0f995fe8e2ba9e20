import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { API_KEY_PREFIX } from '@atende/shared';

/**
 * A key is `atk_<16 hex: its public id>_<43 base64url: 256 random bits>`. The id part
 * (kept as `prefix`) finds the row; only the SHA-256 of the whole key is stored. A
 * plain hash is enough: the key is random, not a password to guess.
 */
const KEY_PATTERN = /^atk_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

export interface NewApiKeySecret {
  key: string;
  prefix: string;
  hash: string;
}

function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export function newApiKeySecret(): NewApiKeySecret {
  const prefix = `${API_KEY_PREFIX}${randomBytes(8).toString('hex')}`;
  const key = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { key, prefix, hash: hashApiKey(key) };
}

/** The public id part of a well-formed key, or null. */
export function apiKeyPrefix(key: string): string | null {
  const match = KEY_PATTERN.exec(key);
  return match ? `${API_KEY_PREFIX}${match[1]}` : null;
}

/** Whether the key hashes to the stored hash, in constant time. */
export function apiKeyMatches(key: string, storedHash: string): boolean {
  const given = Buffer.from(hashApiKey(key), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
