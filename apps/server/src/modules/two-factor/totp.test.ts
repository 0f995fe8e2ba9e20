import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, generateTotpSecret, matchingTotpStep, otpauthUrl, totpCode, totpStep } from './totp.js';

// RFC 6238 Appendix B's SHA-1 key ("12345678901234567890"), its 8-digit values cut to our 6.
const RFC_SECRET = base32Encode(Buffer.from('12345678901234567890'));
const at = (seconds: number) => new Date(seconds * 1000);

describe('TOTP', () => {
  it("answers RFC 6238's test vectors (SHA-1, 30 s steps)", () => {
    expect(RFC_SECRET).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
    expect(totpCode(RFC_SECRET, totpStep(at(59)))).toBe('287082');
    expect(totpCode(RFC_SECRET, totpStep(at(1111111109)))).toBe('081804');
    expect(totpCode(RFC_SECRET, totpStep(at(1234567890)))).toBe('005924');
    expect(totpCode(RFC_SECRET, totpStep(at(2000000000)))).toBe('279037');
  });

  it('accepts the code of the step before and after now, not two steps away', () => {
    const now = at(1_800_000_015);
    const step = totpStep(now);
    expect(matchingTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step), now)).toBe(step);
    expect(matchingTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step - 1), now)).toBe(step - 1);
    expect(matchingTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step + 1), now)).toBe(step + 1);
    expect(matchingTotpStep(RFC_SECRET, totpCode(RFC_SECRET, step - 2), now)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, '12345', now)).toBeNull();
    expect(matchingTotpStep(RFC_SECRET, 'abcdef', now)).toBeNull();
  });

  it('round-trips base32 and makes 160-bit secrets', () => {
    const secret = generateTotpSecret();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    expect(base32Decode(secret)).toHaveLength(20);
    expect(base32Encode(base32Decode(secret))).toBe(secret);
    expect(() => base32Decode('not base32!')).toThrow();
  });

  it('writes the otpauth address authenticator apps read', () => {
    const url = otpauthUrl({ issuer: 'Atende', account: 'ana@example.com', secret: RFC_SECRET });
    expect(url).toBe(`otpauth://totp/Atende:ana%40example.com?secret=${RFC_SECRET}&issuer=Atende&algorithm=SHA1&digits=6&period=30`);
  });
});
