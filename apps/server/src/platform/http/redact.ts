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
  const safeQuery = query.replace(/(^|&)(token|access_token|password)=[^&]*/gi, '$1$2=[redacted]');
  return `${safePath}?${safeQuery}`;
}

export const LOG_REDACT_PATHS = [
  'req.headers.authorization',
  'req.headers.cookie',
  'res.headers["set-cookie"]',
  'password',
  'token',
  '*.password',
  '*.token',
  '*.passwordHash',
  // Card data on its way to the payment provider (never stored): never in a log either.
  'cardNumber',
  'cvv',
  'creditCard',
  '*.cardNumber',
  '*.cvv',
  '*.creditCard',
];
