import { parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode, type PhoneNumber } from 'libphonenumber-js/max';
import type { ValidationMessageKey } from './validation-messages.js';

/**
 * The one normaliser of WhatsApp numbers (docs/architecture.md, "Phone numbers").
 * A number is stored as WhatsApp addresses it: the country code and the national
 * number, digits only, no '+' (5511912340002). The "max" metadata is used because
 * it knows each country's number ranges: it refuses a Brazilian 11-digit number
 * whose third digit is not the mobile 9, which the smaller metadata accepts.
 */

/** Country of a number typed or imported without its country code; no company setting chooses another yet. */
const DEFAULT_PHONE_COUNTRY: CountryCode = 'BR';

/** More than any formatted number needs; a longer text is not a phone number. */
const MAX_INPUT_LENGTH = 60;

/** Digits and the usual separators only: letters are refused rather than read as a keypad's digits (1-800-FLOWERS). */
const PHONE_TEXT = /^\+?[\d\s().\-/]+$/;

export type PhoneNumberProblem = 'required' | 'tooShort' | 'tooLong' | 'unknownCountry' | 'invalid';

export type NormalizedPhoneNumber = { ok: true; number: string } | { ok: false; reason: PhoneNumberProblem };

/** The validation key (packages/shared validation-messages.ts, the web's `validation.*` texts) of each problem. */
export const PHONE_NUMBER_MESSAGES = {
  required: 'validation.required',
  tooShort: 'validation.phoneTooShort',
  tooLong: 'validation.phoneTooLong',
  unknownCountry: 'validation.phoneUnknownCountry',
  invalid: 'validation.invalidPhoneNumber',
} as const satisfies Record<PhoneNumberProblem, ValidationMessageKey>;

const digitsOf = (phone: PhoneNumber) => phone.number.slice(1);

/**
 * A Brazilian mobile number in its form before the ninth digit (2012-2016):
 * area code and 8 digits from 6 to 9, valid once a 9 is put in front of them.
 * WhatsApp still addresses many accounts registered back then by that form (a
 * customer whose number is 5531988887777 may write from 553188887777), so it is
 * accepted as it is written, not refused nor given a 9 the account may not have.
 */
function isOldBrazilianMobile(phone: PhoneNumber): boolean {
  const national = phone.nationalNumber;
  if (phone.countryCallingCode !== '55' || !/^\d\d[6-9]\d{7}$/.test(national)) return false;
  const withNinthDigit = parsePhoneNumberFromString(`+55${national.slice(0, 2)}9${national.slice(2)}`);
  return withNinthDigit?.isValid() === true && withNinthDigit.getType() === 'MOBILE';
}

function problemOf(text: string, defaultCountry: CountryCode | undefined): PhoneNumberProblem {
  switch (validatePhoneNumberLength(text, defaultCountry)) {
    case 'TOO_SHORT':
      return 'tooShort';
    case 'TOO_LONG':
      return 'tooLong';
    case 'INVALID_COUNTRY':
      return 'unknownCountry';
    default:
      return 'invalid';
  }
}

/**
 * A number someone typed, imported or sent through the API, as it is stored
 * (country code and national number, digits only), or why it cannot be one.
 *
 * With a '+' the number carries its country. Without one it is read in the
 * default country first ('(11) 91234-0002' and '5511912340002' both give
 * 5511912340002), then as a number that starts with its country code
 * ('14155552671' is the United States'). Digits valid both ways are the default
 * country's: a number from elsewhere is written with its '+' (Peru's
 * 51987654321 without it reads as Porto Alegre's (51) 98765-4321). A Brazilian
 * mobile without its ninth digit comes last, so it never hides a valid number.
 */
export function normalizePhoneNumber(input: string, defaultCountry: CountryCode = DEFAULT_PHONE_COUNTRY): NormalizedPhoneNumber {
  const text = input.trim();
  if (!text) return { ok: false, reason: 'required' };
  if (text.length > MAX_INPUT_LENGTH || !PHONE_TEXT.test(text)) return { ok: false, reason: 'invalid' };
  const readings = text.startsWith('+')
    ? [parsePhoneNumberFromString(text)]
    : [parsePhoneNumberFromString(text, defaultCountry), parsePhoneNumberFromString(`+${text.replace(/\D/g, '')}`)];
  const found = readings.find((phone) => phone?.isValid()) ?? readings.find((phone) => phone !== undefined && isOldBrazilianMobile(phone));
  if (found) return { ok: true, number: digitsOf(found) };
  return { ok: false, reason: problemOf(text, text.startsWith('+') ? undefined : defaultCountry) };
}

/**
 * A number a channel gave: the chat's WhatsApp id, which already carries its
 * country code. Only its digits are kept, never completed with a default country
 * nor rewritten by the library (a received id is the address replies go to, even
 * when the metadata finds it odd), and never refused: a customer's message is
 * stored whatever its number. A group's id keeps its '-' (older WhatsApp Web group
 * ids are `<creator>-<timestamp>`) and its letters (the Cloud API's are opaque
 * base64-like ids); a text without digits is kept as it came.
 */
export function receivedPhoneNumber(from: string, isGroup = false): string {
  return from.replace(isGroup ? /[^\w-]/g : /\D/g, '') || from;
}

/** The stored number itself, when `input` is it (with or without formatting): kept unchanged, whatever the normaliser would say. */
export function isStoredNumber(input: string, stored: string | undefined): boolean {
  if (stored === undefined) return false;
  const text = input.trim();
  return text === stored || (text.replace(/\D/g, '') === stored.replace(/\D/g, '') && /\d/.test(stored));
}
