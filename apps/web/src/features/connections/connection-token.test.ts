import { ConnectionCreateBody } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { generateConnectionToken, GENERATED_TOKEN_LENGTH } from './connection-token';

describe('external API token generator', () => {
  it('makes 32 letters and digits that the server accepts as a token', () => {
    const token = generateConnectionToken();
    expect(GENERATED_TOKEN_LENGTH).toBe(32);
    expect(token).toMatch(/^[A-Za-z0-9]{32}$/);
    expect(ConnectionCreateBody.safeParse({ name: 'Loja', token }).success).toBe(true);
  });

  it('never repeats itself', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => generateConnectionToken()));
    expect(tokens.size).toBe(200);
  });

  it('drops the bytes that would make some characters likelier than others', () => {
    // 248..255 are past the last whole multiple of 62: they must be skipped, not folded onto 'A'..'H'.
    let call = 0;
    const token = generateConnectionToken((count) => {
      call += 1;
      return new Uint8Array(count).fill(call === 1 ? 250 : 0);
    });
    expect(call).toBe(2);
    expect(token).toBe('A'.repeat(32));
  });
});
