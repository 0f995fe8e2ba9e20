import { createECDH } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { encryptPushPayload } from './web-push.js';

describe('Web Push message encryption', () => {
  it('gives, byte for byte, the worked example of RFC 8291 (§5, Appendix A)', () => {
    const ephemeral = createECDH('prime256v1');
    ephemeral.setPrivateKey(Buffer.from('yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw', 'base64url'));
    const body = encryptPushPayload(
      { p256dh: 'BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4', auth: 'BTBZMqHH6r4Tts7J_aSIgg' },
      Buffer.from('When I grow up, I want to be a watermelon'),
      { ephemeral, salt: Buffer.from('DGv6ra1nlYgDCS1FRnbzlw', 'base64url') },
    );
    expect(body.toString('base64url')).toBe(
      'DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN',
    );
  });

  it('refuses keys of the wrong shape and payloads over one record', () => {
    expect(() => encryptPushPayload({ p256dh: 'AA', auth: 'BTBZMqHH6r4Tts7J_aSIgg' }, Buffer.from('x'))).toThrow(/p256dh/);
    const ua = createECDH('prime256v1');
    ua.generateKeys();
    expect(() => encryptPushPayload({ p256dh: ua.getPublicKey().toString('base64url'), auth: 'AAAA' }, Buffer.from('x'))).toThrow(/auth/);
    expect(() => encryptPushPayload({ p256dh: ua.getPublicKey().toString('base64url'), auth: 'BTBZMqHH6r4Tts7J_aSIgg' }, Buffer.alloc(4000))).toThrow(/larger/);
  });
});
