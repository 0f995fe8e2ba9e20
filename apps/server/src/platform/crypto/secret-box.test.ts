import { describe, expect, it } from 'vitest';
import { createSecretBox, maskSecret } from './secret-box.js';

describe('secret box', () => {
  const box = createSecretBox('k'.repeat(40));

  it('opens what it sealed, and seals the same text differently each time', () => {
    const sealed = box.seal('sk-live-123');
    expect(sealed).not.toContain('sk-live');
    expect(box.open(sealed)).toBe('sk-live-123');
    expect(box.seal('sk-live-123')).not.toBe(sealed);
  });

  it('refuses a tampered value and another key', () => {
    const sealed = box.seal('secret');
    const parts = sealed.split('.');
    const tampered = [...parts.slice(0, 3), Buffer.from('other!').toString('base64url')].join('.');
    expect(() => box.open(tampered)).toThrow();
    expect(() => createSecretBox('z'.repeat(40)).open(sealed)).toThrow();
    expect(() => box.open('plain text')).toThrow(/not a sealed secret/);
  });

  it('masks secrets for display', () => {
    expect(maskSecret('')).toBe('');
    expect(maskSecret('short')).toBe('••••');
    expect(maskSecret('sk-abcdefghijklmnop')).toBe('sk-••••mnop');
  });
});
