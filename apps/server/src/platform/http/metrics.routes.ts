import { createHash, timingSafeEqual } from 'node:crypto';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import type { Metrics } from '../metrics.js';
import { AppError } from './app-error.js';
import { bearerToken } from './auth-hook.js';
import { registerErrorHandler } from './error-handler.js';

/** Requests that matched no route share one label: the URL itself is never a label. */
const UNMATCHED_ROUTE = '(unmatched)';

/**
 * Times every answered request into `atende_http_request_duration_seconds` by its route's
 * pattern. On the root instance before any route, so every route has it; nothing is
 * added when metrics are off.
 */
export function observeHttpRequests(app: FastifyInstance, metrics: Metrics): void {
  if (!metrics.enabled) return;
  app.addHook('onResponse', (request, reply, done) => {
    metrics.httpRequest(request.method, request.routeOptions.url ?? UNMATCHED_ROUTE, reply.statusCode, reply.elapsedTime / 1000);
    done();
  });
}

/** Compared as digests of equal length, so the time taken tells nothing of the token. */
function sameToken(given: string, expected: Buffer): boolean {
  return timingSafeEqual(createHash('sha256').update(given).digest(), expected);
}

/**
 * `GET /metrics`: this process's metrics in Prometheus's text format, for the holder of
 * METRICS_TOKEN only (401 otherwise); 404 while METRICS_TOKEN is unset. Public (no
 * company session) and outside every rate limit: a scraper calls it every few seconds.
 */
export function registerMetricsRoutes(app: FastifyInstance, deps: { metrics: Metrics; token: string | undefined }): void {
  const expected = deps.token === undefined ? null : createHash('sha256').update(deps.token).digest();
  app.get('/metrics', async (request, reply) => {
    if (!expected || !deps.metrics.enabled) throw new AppError('ERR_NOT_FOUND');
    const token = bearerToken(request);
    if (token === null || !sameToken(token, expected)) throw new AppError('ERR_SESSION_EXPIRED', 401, {}, { 'www-authenticate': 'Bearer realm="metrics"' });
    const { contentType, body } = await deps.metrics.render();
    return reply.header('content-type', contentType).header('cache-control', 'no-store').send(body);
  });
}

/**
 * `GET /metrics` alone on a port of its own (METRICS_PORT): a node without the `api`
 * service has no HTTP server otherwise, and on any node the scraper can reach this port
 * without going through the public proxy. Answers nothing else (404).
 */
export async function listenForMetrics(options: { metrics: Metrics; token: string; port: number; host: string; logger: FastifyBaseLogger }): Promise<FastifyInstance> {
  const server = Fastify({ loggerInstance: options.logger, disableRequestLogging: true });
  registerErrorHandler(server);
  registerMetricsRoutes(server, { metrics: options.metrics, token: options.token });
  await server.listen({ port: options.port, host: options.host });
  return server;
}
