import { describe, expect, it } from 'vitest';
import { isValidPhoneNumber, normalizePhoneNumber, rememberCustomer, vcardFor } from './phone-number';

describe('sandbox customer number', () => {
  it('keeps only the digits', () => {
    expect(normalizePhoneNumber('+55 (11) 99999-8888')).toBe('5511999998888');
  });

  it('accepts 8 to 15 digits', () => {
    expect(isValidPhoneNumber('12345678')).toBe(true);
    expect(isValidPhoneNumber('+55 11 99999-8888')).toBe(true);
    expect(isValidPhoneNumber('123456789012345')).toBe(true);
    expect(isValidPhoneNumber('1234567')).toBe(false);
    expect(isValidPhoneNumber('1234567890123456')).toBe(false);
    expect(isValidPhoneNumber('')).toBe(false);
    expect(isValidPhoneNumber('abcdefghij')).toBe(false);
  });
});

describe('recent customers', () => {
  it('puts the latest first without repeating a number, up to the limit', () => {
    let list = rememberCustomer([], { number: '111111111', name: 'A' });
    list = rememberCustomer(list, { number: '222222222', name: 'B' });
    list = rememberCustomer(list, { number: '111111111', name: 'A2' });
    expect(list).toEqual([
      { number: '111111111', name: 'A2' },
      { number: '222222222', name: 'B' },
    ]);
    expect(rememberCustomer(list, { number: '333333333', name: 'C' }, 2).map((c) => c.number)).toEqual(['333333333', '111111111']);
  });
});

describe('contact card', () => {
  it('carries the name and the WhatsApp id', () => {
    const card = vcardFor('Joana Souza', '5511977776666');
    expect(card).toContain('FN:Joana Souza');
    expect(card).toContain('waid=5511977776666');
    expect(card.startsWith('BEGIN:VCARD')).toBe(true);
  });
});
