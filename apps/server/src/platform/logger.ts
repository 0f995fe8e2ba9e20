import { AsyncLocalStorage } from 'node:async_hooks';
import pino, { type DestinationStream, type Logger } from 'pino';
import { censorSecrets, redactUrl } from './http/redact.js';

export type { Logger };

/** What the lines logged while a request is handled say of it: its id, its company and user once known. */
interface LogContext {
  /** For lines of the request's own logger, which binds the id itself. */
  user: { companyId?: number; userId?: number };
  /** For lines of any other logger. */
  all: { reqId: string; companyId?: number; userId?: number };
}

/**
 * The request being handled, for the lines logged on its behalf by any area through the one
 * logger (not only Fastify's request logger): `runWithLogContext` opens it, the auth hook adds
 * the company and the user. Lines of work no request started (jobs, sockets) have none.
 */
const requestContext = new AsyncLocalStorage<LogContext>();
const requestLoggers = new WeakSet<object>();
const NO_CONTEXT = {};

export function runWithLogContext(reqId: string, next: () => void): void {
  requestContext.run({ user: NO_CONTEXT, all: { reqId } }, next);
}

/** Adds the company and user to the current request's lines, once the session is known. */
export function noteLogUser(companyId: number, userId: number): void {
  const context = requestContext.getStore();
  if (!context) return;
  context.user = { companyId, userId };
  context.all = { reqId: context.all.reqId, companyId, userId };
}

/** Fastify's logger of one request (it binds `reqId`): the log context adds only the company and user to it. */
export function requestLogger<T extends object>(child: T): T {
  requestLoggers.add(child);
  return child;
}

function contextFields(_line: object, _level: number, logger: object): object {
  const context = requestContext.getStore();
  if (!context) return NO_CONTEXT;
  return requestLoggers.has(logger) ? context.user : context.all;
}

/**
 * The process's one logger: every area logs through it or a `child({ module })` of it,
 * so secrets are redacted everywhere (passwords, tokens, cookies, the password reset's
 * path), not only in the request logs. Fastify logs through it too.
 */
export function createLogger(level: string, destination?: DestinationStream): Logger {
  const options = {
    level,
    // Secret fields censored in every line and every child's bindings (redact.ts).
    formatters: { log: censorSecrets, bindings: censorSecrets },
    mixin: contextFields,
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
  // A test may read what is logged (`destination`); the process logs to standard output.
  return destination ? pino(options, destination) : pino(options);
}
