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

/** Names of secrets, as fields of a logged object or one level down (`{ body: { password } }`, `config.JWT_SECRET`). */
const SECRET_KEYS = [
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
  'cookie',
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
];

/**
 * What the one logger censors in every line (pino's `redact`): the secrets above at the
 * top level and one level down, and the headers of a logged request or answer.
 */
export const LOG_REDACT_PATHS = [
  ...SECRET_KEYS,
  ...SECRET_KEYS.map((key) => `*.${key}`),
  'req.headers.authorization',
  'req.headers.cookie',
  'req.headers["x-api-key"]',
  'headers.authorization',
  'headers.cookie',
  'headers["set-cookie"]',
  'res.headers["set-cookie"]',
  '*.headers.authorization',
  '*.headers.cookie',
];
