import { describe, expect, it } from 'vitest';
import { likeContains, phoneSearchDigits } from './search.js';

describe('search helpers', () => {
  it('escapes LIKE wildcards', () => {
    expect(likeContains("50%_off\\'")).toBe("%50\\%\\_off\\\\'%");
  });

  it('searches numbers only for terms that look like phone numbers', () => {
    expect(phoneSearchDigits('+55 (11) 99999-0000')).toBe('5511999990000');
    expect(phoneSearchDigits('9999')).toBe('9999');
    expect(phoneSearchDigits('Cliente Número 1')).toBe('');
    expect(phoneSearchDigits('abc')).toBe('');
  });
});
