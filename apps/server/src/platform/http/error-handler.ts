import { validationText } from '@atende/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { isDatabaseUnavailable } from '../db/unavailable.js';
import { isNoSpaceError } from '../storage/disk-space.js';
import { AppError } from './app-error.js';

/** Seconds a client waits before retrying while the database is unreachable. */
export const UNAVAILABLE_RETRY_AFTER_SECONDS = 5;

function fieldMessages(error: ZodError): Record<string, string[]> {
  const fields: Record<string, string[]> = {};
  for (const issue of error.issues) {
    const key = issue.path.length > 0 ? issue.path.join('.') : issue.code === 'unrecognized_keys' ? 'body' : '_';
    const message =
      issue.code === 'unrecognized_keys'
        ? `Unknown field(s): ${issue.keys.join(', ')}`
        : issue.message.startsWith('validation.')
          ? validationText(issue.message)
          : issue.message;
    (fields[key] ??= []).push(message);
  }
  return fields;
}

export interface ErrorHandlerOptions {
  /** Told of every write that failed for lack of space (so /health reports it). */
  onNoSpace?: (error: unknown) => void;
}

/** Maps every thrown error to the spec's `{ error: "ERR_..." }` shape. */
export function registerErrorHandler(app: FastifyInstance, options: ErrorHandlerOptions = {}): void {
  app.setErrorHandler((error: FastifyError | AppError | ZodError, request, reply) => {
    if (error instanceof AppError) {
      return reply.status(error.statusCode).headers(error.headers).send({ error: error.code, ...error.extra });
    }
    if (error instanceof ZodError) {
      const where = (error as ZodError & { validationContext?: string }).validationContext;
      return reply.status(400).send({
        error: 'ERR_VALIDATION',
        message: `Invalid ${where ?? 'input'}`,
        fields: fieldMessages(error),
      });
    }
    const status = 'statusCode' in error && typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status === 413) return reply.status(413).send({ error: 'ERR_PAYLOAD_TOO_LARGE', message: error.message });
    if (status === 429) return reply.status(429).send({ error: 'ERR_TOO_MANY_REQUESTS', message: error.message });
    if (status >= 400 && status < 500) {
      // Fastify's own client errors: malformed JSON, wrong content type, empty body.
      return reply.status(status).send({ error: 'ERR_VALIDATION', message: error.message });
    }
    if (isDatabaseUnavailable(error)) {
      // The database is stopped or restarting: the client retries; the pool reconnects by itself.
      request.log.warn({ err: error }, 'database unavailable');
      return reply.status(503).header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS)).send({ error: 'ERR_SERVICE_UNAVAILABLE' });
    }
    if (isNoSpaceError(error)) {
      // A full disk (DATA_DIR, the embedded database, or PostgreSQL's): nothing was stored; the client may send it again later.
      request.log.warn({ err: error }, 'no space left');
      options.onNoSpace?.(error);
      return reply.status(507).send({ error: 'ERR_STORAGE_FULL' });
    }
    request.log.error({ err: error }, 'unhandled error');
    return reply.status(500).send({ error: 'ERR_INTERNAL_SERVER_ERROR' });
  });

  app.setNotFoundHandler((request, reply) => {
    return reply.status(404).send({ error: 'ERR_NOT_FOUND', message: `Route ${request.method} ${request.url.split('?')[0]} not found` });
  });
}
