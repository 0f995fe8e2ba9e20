import type { FastifyCorsOptions } from '@fastify/cors';

/**
 * CORS for the origins of `WEB_ORIGIN` (the Vite dev server, a web client served
 * elsewhere). The app served by this server is same-origin and needs none.
 * @fastify/cors's defaults allow only GET, HEAD and POST in a preflight, so a client
 * on an allowed origin could not accept, transfer, edit or delete anything.
 */

/** Every method the API's routes use. */
const CORS_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'];

/**
 * Request headers the web client and API clients send beyond the CORS-safelisted ones:
 * the bearer token, JSON bodies, and a request id to correlate with the server's logs.
 */
const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', 'Accept', 'Accept-Language', 'X-Request-Id'];

/**
 * Response headers clients read: the next page of `GET /invoices/all`, the request id,
 * how long to wait after a 429 or 503, and a download's file name.
 */
const CORS_EXPOSED_HEADERS = ['X-Has-More', 'X-Request-Id', 'Retry-After', 'Content-Disposition'];

export function corsOptions(origins: string[]): FastifyCorsOptions {
  return {
    origin: origins,
    credentials: true,
    methods: CORS_METHODS,
    allowedHeaders: CORS_ALLOWED_HEADERS,
    exposedHeaders: CORS_EXPOSED_HEADERS,
    // Browsers keep a preflight answer this long (Chromium caps it at 2 h).
    maxAge: 600,
  };
}
