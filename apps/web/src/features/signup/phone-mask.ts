/** The sign-up phone keeps digits only, at most 11 (spec part 2 §2.18). */
export const PHONE_MAX_DIGITS = 11;

export function phoneDigits(input: string): string {
  return input.replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
}

/**
 * The mask (99) 99999-9999 applied as the digits are typed; a ten-digit number
 * (a landline) shows as (99) 9999-9999.
 */
export function maskPhone(input: string): string {
  const digits = phoneDigits(input);
  if (digits.length === 0) return '';
  if (digits.length <= 2) return `(${digits}`;
  const area = digits.slice(0, 2);
  const rest = digits.slice(2);
  const split = digits.length === PHONE_MAX_DIGITS ? 5 : 4;
  if (rest.length <= split) return `(${area}) ${rest}`;
  return `(${area}) ${rest.slice(0, split)}-${rest.slice(split)}`;
}
