import { z } from 'zod';
import { id } from './validation.js';

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

/** What a form sends for "nothing chosen": `false` (the Resolve button), `''` (an empty select), `null`. */
const isNone = (value: unknown) => value === false || value === '' || value === null;

/**
 * An optional reference to another record (promptId, integrationId, whatsappId,
 * queueId, ...): an id, or "none" as `false`, `''`, `null`, `0` or `'0'`, which
 * all read as null (clear the reference). A wrong id is still a 400.
 */
export const noneId = () =>
  z.preprocess((value) => (isNone(value) || value === 0 || value === '0' ? null : value), id().nullable());

/**
 * An optional enum-like value or sub-object (language, cloudApi, recurrence, ...)
 * where `false`, `''` or `null` mean "not given": the field is then absent (its
 * default on create, the stored value on update), as if it had not been sent.
 */
export const noneAsAbsent = <T extends z.ZodType>(schema: T) =>
  z.preprocess((value: z.input<T> | false | '' | null) => (isNone(value) ? undefined : value), schema);
