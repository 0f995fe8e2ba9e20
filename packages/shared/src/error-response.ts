import { z } from 'zod';
import { ERROR_CODES, type ErrorCode } from './errors.js';

/**
 * Body of every error response (the error envelope). `fields` is present on validation
 * failures; some codes add their own keys (a lost ticket race names `userName` and the
 * ticket, an expired company its `dueDate`).
 */
export const ErrorResponseSchema = z.looseObject({
  error: z.enum(ERROR_CODES as [ErrorCode, ...ErrorCode[]]),
  message: z.string().optional(),
  /** Per invalid field (`body.name`, `query.pageNumber`), its messages. */
  fields: z.record(z.string(), z.array(z.string())).optional(),
});
export type ErrorResponse = z.output<typeof ErrorResponseSchema>;
