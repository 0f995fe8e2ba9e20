import pino, { type DestinationStream, type Logger } from 'pino';
import { censorSecrets, redactUrl } from './http/redact.js';

export type { Logger };

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
    serializers: {
      req: (req: { method: string; url: string; id: string; ip?: string }) => ({ id: req.id, method: req.method, url: redactUrl(req.url), ip: req.ip }),
    },
  };
  // A test may read what is logged (`destination`); the process logs to standard output.
  return destination ? pino(options, destination) : pino(options);
}
