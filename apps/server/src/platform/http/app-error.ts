import { ERROR_STATUS, type ErrorCode } from '@atende/shared';

/** A business error: becomes `{ error: code, ...extra }` with the code's status. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    statusOverride?: number,
    readonly extra: Record<string, unknown> = {},
    /** Headers of the answer (e.g. Retry-After). */
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
    this.statusCode = statusOverride ?? ERROR_STATUS[code];
  }
}

/** 429 `ERR_TOO_MANY_REQUESTS` telling the client when to try again. */
export function tooManyRequests(retryAfterSeconds: number): AppError {
  return new AppError('ERR_TOO_MANY_REQUESTS', undefined, {}, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}
