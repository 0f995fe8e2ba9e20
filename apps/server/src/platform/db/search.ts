/** Escapes LIKE wildcards so a search for '%' or '_' matches those characters. */
export function likeContains(term: string): string {
  return `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

const PHONE_LIKE = /^[\d\s()+.-]+$/;

/**
 * The digits to look for in phone numbers, only when the search term looks like
 * a phone number: 'Cliente 1' must not match every number containing a 1.
 */
export function phoneSearchDigits(term: string): string {
  return PHONE_LIKE.test(term.trim()) ? term.replace(/\D/g, '') : '';
}
