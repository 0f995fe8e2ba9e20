import { describe, expect, it } from 'vitest';
import { normalizePhoneNumber, receivedPhoneNumber } from './phone-number.js';
import { ContactBody, ContactUpdateBody, contactNumber, ExternalSendBody } from './phone-schemas.js';

const number = (input: string) => {
  const result = normalizePhoneNumber(input);
  return result.ok ? result.number : result.reason;
};

describe('normalizePhoneNumber', () => {
  it('gives every way of writing one Brazilian mobile the same stored number', () => {
    for (const written of ['+55 (11) 91234-0002', '(11) 91234-0002', '5511912340002', '11912340002', ' 11 91234 0002 ', '+5511912340002', '11.91234.0002']) {
      expect(number(written), written).toBe('5511912340002');
    }
  });

  it('reads a number without a "+" in Brazil first, then as starting with its country code', () => {
    expect(number('(21) 3333-4444')).toBe('552133334444');
    expect(number('14155552671')).toBe('14155552671');
    expect(number('+1 415 555 2671')).toBe('14155552671');
    expect(number('+351 912 345 678')).toBe('351912345678');
    // The national prefix written after the country code is dropped, as the international number has none.
    expect(number('+44 (0)20 7946 0000')).toBe('442079460000');
    // Digits valid in Brazil and elsewhere are Brazil's: another country's number needs its '+'.
    expect(number('51987654321')).toBe('5551987654321');
    expect(number('+51 987 654 321')).toBe('51987654321');
  });

  it('keeps a Brazilian mobile written without its ninth digit as it is written', () => {
    expect(number('551187654321')).toBe('551187654321');
    expect(number('+55 31 8888-7777')).toBe('553188887777');
    expect(number('(31) 8888-7777')).toBe('553188887777');
    // Eight digits that were never a mobile (from 2 to 5: a landline's form) are landlines, valid on their own.
    expect(number('(11) 4000-0000')).toBe('551140000000');
    // A valid number of another country is not taken for an old mobile (Singapore's +65 9123 4567).
    expect(number('6591234567')).toBe('6591234567');
  });

  it('refuses what is not a phone number, with the reason', () => {
    expect(number('')).toBe('required');
    expect(number('   ')).toBe('required');
    expect(number('123')).toBe('tooShort');
    expect(number('+1 555')).toBe('tooShort');
    expect(number('91234-0002')).toBe('invalid');
    expect(number('abc')).toBe('invalid');
    expect(number('1-800-FLOWERS')).toBe('invalid');
    expect(number('11 91234-0002 ramal 5')).toBe('invalid');
    expect(number('+999 1234 5678')).toBe('unknownCountry');
    expect(number('5511912340002000')).toBe('tooLong');
    // An 11-digit Brazilian number is a mobile, and mobiles start with 9.
    expect(number('(11) 81234-0002')).toBe('invalid');
    // A group's id is no phone number: groups are never typed in.
    expect(number('120363025246125888')).toBe('tooLong');
    expect(number('9'.repeat(61))).toBe('invalid');
  });
});

describe('receivedPhoneNumber', () => {
  it('keeps the digits a channel gave: no default country, nothing refused, a group id untouched', () => {
    expect(receivedPhoneNumber('5511912340002')).toBe('5511912340002');
    expect(receivedPhoneNumber('+55 11 91234-0002')).toBe('5511912340002');
    // Without its country code it stays so: the channel's id is where replies go.
    expect(receivedPhoneNumber('11912340002')).toBe('11912340002');
    expect(receivedPhoneNumber('5215512345678')).toBe('5215512345678');
    expect(receivedPhoneNumber('120363025246125888', true)).toBe('120363025246125888');
    expect(receivedPhoneNumber('5511999999999-1600000000', true)).toBe('5511999999999-1600000000');
    expect(receivedPhoneNumber('Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAz', true)).toBe('Y2FwaV9ncm91cDoxNzA1NTU1MDEzOToxMjAz');
    expect(receivedPhoneNumber('status')).toBe('status');
  });
});

describe('the number in the schemas', () => {
  it('a contact is stored with the normaliser\'s number, or refused with its validation key', () => {
    expect(ContactBody.parse({ name: 'Ana', number: '(11) 91234-0002' }).number).toBe('5511912340002');
    expect(ContactBody.safeParse({ name: 'Ana', number: '123' }).error?.issues.map((issue) => [issue.path.join('.'), issue.message])).toEqual([['number', 'validation.phoneTooShort']]);
    expect(ContactBody.safeParse({ name: 'Ana', number: '' }).error?.issues[0]?.message).toBe('validation.required');
    expect(ContactBody.safeParse({ name: 'Ana' }).error?.issues[0]?.message).toBe('validation.required');
  });

  it('an edit keeps the stored number sent back, even one the normaliser would refuse (a group id)', () => {
    expect(contactNumber({ keep: '120363025246125888' }).parse('120363025246125888')).toBe('120363025246125888');
    expect(contactNumber({ keep: '5511999999999-1600000000' }).parse('5511999999999-1600000000')).toBe('5511999999999-1600000000');
    expect(contactNumber({ keep: '11912340002' }).parse('11912340002')).toBe('11912340002');
    expect(contactNumber({ keep: '11912340002' }).parse('(11) 91234-0003')).toBe('5511912340003');
    expect(contactNumber({ keep: '120363025246125888' }).safeParse('123').error?.issues[0]?.message).toBe('validation.phoneTooShort');
    expect(ContactUpdateBody.parse({ number: ' (11) 91234-0002 ' }).number).toBe('(11) 91234-0002');
  });

  it('the external API normalises its number', () => {
    expect(ExternalSendBody.parse({ number: '(11) 91234-0002', body: 'Oi' }).number).toBe('5511912340002');
    expect(ExternalSendBody.safeParse({ number: '1234', body: 'Oi' }).error?.issues[0]?.message).toBe('validation.phoneTooShort');
  });
});
