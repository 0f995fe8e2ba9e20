import { z } from 'zod';

/**
 * Request conventions (issue 17, ARCHITECTURE.md §3 rule 11): a client written
 * for the spec's calls sends values as its forms hold them, so every request
 * schema reads them through these primitives instead of spelling its own.
 */

const FLAG_VALUES = [0, 1, 'true', 'false', '1', '0'] as const;

/**
 * A boolean flag as spec clients send it: `true`/`false`, `1`/`0` or
 * `"true"`/`"false"`/`"1"`/`"0"` (the message composer sends `read: 1`, the user
 * modal `super: 0`). Anything else is a 400.
 */
export const flag = () =>
  z
    .union([z.boolean(), z.literal(FLAG_VALUES)], { error: 'validation.invalidValue' })
    .transform((value) => value === true || value === 1 || value === 'true' || value === '1');

/** A flag in a query string: absent or empty (`showAll=`) is false. */
export const queryFlag = () =>
  z
    .union([z.literal('').transform(() => false), flag()])
    .optional()
    .transform((value) => value === true);
