import { ERROR_STATUS, type ErrorCode } from '@atende/shared';

/** A business error: becomes `{ error: code, ...extra }` with the code's status. */
export class AppError extends Error {
  readonly statusCode: number;

  constructor(
    readonly code: ErrorCode,
    statusOverride?: number,
    readonly extra: Record<string, unknown> = {},
  ) {
    super(code);
    this.statusCode = statusOverride ?? ERROR_STATUS[code];
  }
}
