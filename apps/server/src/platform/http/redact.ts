/**
 * Removes secrets from a URL before it is logged: the spec's password reset puts
 * the email, code and new password in the path, and sockets pass tokens in the query.
 */
export function redactUrl(url: string): string {
  const [pathPart = '', query] = url.split('?', 2);
  let safePath = pathPart;
  if (/^\/resetpasswords\//i.test(pathPart)) safePath = '/resetpasswords/[redacted]';
  else if (/^\/forgetpassword\//i.test(pathPart)) safePath = '/forgetpassword/[redacted]';
  else if (/^\/payments\/pix\/webhook\//i.test(pathPart)) safePath = '/payments/pix/webhook/[redacted]';
  if (query === undefined) return safePath;
  // Any parameter whose name says secret: tokens (sockets, the Cloud API's hub.verify_token), passwords, keys, signatures of media URLs.
  const safeQuery = query.replace(/(^|&)([^&=]*(?:token|password|secret|key|signature)[^&=]*)=[^&]*/gi, '$1$2=[redacted]');
  return `${safePath}?${safeQuery}`;
}

/**
 * Names of secrets: a field of a logged object with one of these names is censored,
 * at any of the first levels (`{ password }`, `{ body: { password } }`,
 * `{ request: { headers: { authorization } } }`, `{ config: { JWT_SECRET } }`).
 */
const SECRET_KEYS = new Set([
  'password',
  'newPassword',
  'passwordHash',
  'token',
  'accessToken',
  'refreshToken',
  'apiKey',
  'api_key',
  'secret',
  'appSecret',
  'clientSecret',
  'verifyToken',
  'authorization',
  'Authorization',
  'cookie',
  'Cookie',
  'set-cookie',
  'x-api-key',
  // Card data on its way to the payment provider (never stored): never in a log either.
  'cardNumber',
  'cvv',
  'creditCard',
  // The environment's secrets, should a configuration be logged.
  'JWT_SECRET',
  'JWT_REFRESH_SECRET',
  'ENCRYPTION_KEY',
  'ADMIN_PASSWORD',
  'METRICS_TOKEN',
  'PAYMENT_WEBHOOK_SECRET',
  'EFI_CLIENT_SECRET',
  'EFI_CERT_PASSPHRASE',
  'S3_ACCESS_KEY_ID',
  'S3_SECRET_ACCESS_KEY',
  'DATABASE_URL',
  'REDIS_URL',
  'SMTP_URL',
]);

const CENSORED = '[redacted]';
/** How deep a logged object is searched: `{ request: { headers: { authorization } } }` is three levels. */
const CENSOR_DEPTH = 3;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const prototype: unknown = Object.getPrototypeOf(value);
  return prototype === Object.prototype || prototype === null;
}

/**
 * The logged object with every secret field censored (the one logger's `formatters`).
 * Only plain objects are searched (not errors, buffers, Fastify's request, which the
 * serializers reduce to safe fields), and copied only where a secret is found: a line
 * without one costs a few key lookups. pino's own `redact` was measured five times
 * slower per line with this many names.
 */
export function censorSecrets<T extends Record<string, unknown>>(object: T, depth = CENSOR_DEPTH): T {
  let copy: Record<string, unknown> | null = null;
  for (const key in object) {
    const value = object[key];
    let safe: unknown = value;
    if (SECRET_KEYS.has(key)) safe = value === undefined || value === null ? value : CENSORED;
    else if (depth > 1 && isPlainObject(value)) safe = censorSecrets(value, depth - 1);
    if (safe !== value) {
      copy ??= { ...object };
      copy[key] = safe;
    }
  }
  return (copy ?? object) as T;
}
