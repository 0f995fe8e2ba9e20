import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';

const VERSION = 'v1';

/**
 * Encrypts secrets kept in the database (channel access tokens, AI API keys,
 * integration credentials) with AES-256-GCM under a key derived from
 * ENCRYPTION_KEY. A stored value reads `v1.<iv>.<tag>.<ciphertext>` (base64url).
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(encryptionKey: string): SecretBox {
  const key = Buffer.from(hkdfSync('sha256', encryptionKey, 'atende', 'database-secrets', 32));
  return {
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key, iv);
      const data = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return [VERSION, iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
    },
    open(sealed) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed secret');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}

/** What a secret looks like when shown back to a user: never the whole value. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length <= 8 ? '••••' : `${secret.slice(0, 3)}••••${secret.slice(-4)}`;
}
