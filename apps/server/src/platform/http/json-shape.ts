/**
 * The structure of a JSON text, walked without building it: what `JSON.parse`
 * would allocate grows with the number of values, not the bytes (8 MiB of `{}`
 * are 2.8 million objects, half a second of a blocked event loop), so a route
 * that takes a large array checks its shape on the raw text first.
 */

export interface JsonArrayLimits {
  /** Items of the top-level array. */
  maxItems: number;
  /** Object members (`"key": value`) in the whole text. */
  maxMembers: number;
  /** Nesting: 1 is a flat array, 2 an array of objects or arrays of scalars. */
  maxDepth: number;
}

export type JsonShapeExcess = 'items' | 'members' | 'depth';

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;
const COMMA = 0x2c;
const COLON = 0x3a;

/**
 * The first limit the text goes past, read up to that point; null when within
 * them all. Malformed JSON is not judged here (`JSON.parse` refuses it next).
 */
export function jsonArrayExcess(text: string, limits: JsonArrayLimits): JsonShapeExcess | null {
  let depth = 0;
  let items = 0;
  let members = 0;
  let expectingItem = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code === QUOTE) {
      // Jump to the closing quote: one not preceded by an odd run of backslashes.
      let end = text.indexOf('"', i + 1);
      while (end > 0) {
        let slashes = 0;
        while (text.charCodeAt(end - 1 - slashes) === BACKSLASH) slashes += 1;
        if (slashes % 2 === 0) break;
        end = text.indexOf('"', end + 1);
      }
      if (end < 0) return null;
      if (depth === 1 && expectingItem) {
        items += 1;
        expectingItem = false;
      }
      i = end;
      continue;
    }
    if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      if (depth === 1 && expectingItem) {
        items += 1;
        expectingItem = false;
      }
      depth += 1;
      if (depth > limits.maxDepth) return 'depth';
      if (depth === 1) expectingItem = code === OPEN_BRACKET;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    } else if (code === COMMA) {
      if (depth === 1) expectingItem = true;
    } else if (code === COLON) {
      members += 1;
      if (members > limits.maxMembers) return 'members';
    } else if (depth === 1 && expectingItem && code > 0x20) {
      // A bare scalar item (number, true, false, null).
      items += 1;
      expectingItem = false;
    }
    if (items > limits.maxItems) return 'items';
  }
  return null;
}
