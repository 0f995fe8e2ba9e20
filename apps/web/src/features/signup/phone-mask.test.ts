import { describe, expect, it } from 'vitest';
import { maskPhone, phoneDigits } from './phone-mask';

describe('sign-up phone mask (99) 99999-9999', () => {
  it('formats as the digits come and keeps at most 11 digits', () => {
    expect(maskPhone('')).toBe('');
    expect(maskPhone('1')).toBe('(1');
    expect(maskPhone('119')).toBe('(11) 9');
    expect(maskPhone('1191234')).toBe('(11) 9123-4');
    expect(maskPhone('1132345678')).toBe('(11) 3234-5678');
    expect(maskPhone('11912345678')).toBe('(11) 91234-5678');
    expect(maskPhone('(11) 91234-56789')).toBe('(11) 91234-5678');
    expect(phoneDigits('(11) 91234-5678 99')).toBe('11912345678');
  });
});
