import { API_KEY_PREFIX } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Authenticate, RequestClient, RequestContext } from './context.js';
import { noteLogUser } from '../logger.js';
import { AppError } from './app-error.js';
import { isCompanyExpired, isCompanySuspended } from './context.js';

/** Who is calling from where, as the audit log records it (the user agent cut to 300 characters). */
export function requestClient(request: FastifyRequest): RequestClient {
  const agent = request.headers['user-agent'];
  return { ip: request.ip, userAgent: typeof agent === 'string' && agent !== '' ? agent.slice(0, 300) : null };
}

export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const [scheme, token] = header.split(' ');
  return scheme?.toLowerCase() === 'bearer' && token ? token : null;
}

/**
 * Installs authentication on one encapsulated scope: every route registered
 * inside it has `req.ctx`. A company whose due date passed gets 402 on data
 * routes (super users excepted), so an expired tenant cannot keep working
 * through the API after the login screen refused it. A suspended company
 * (`status = false`) gets 403 ERR_COMPANY_SUSPENDED on every private route.
 * A session of a user who must set up a second factor (the company requires one) gets
 * 403 ERR_TWO_FACTOR_SETUP_REQUIRED on every route but those marked `allowTwoFactorSetup`.
 * A bearer that starts with `atk_` is a company API key: `authenticateKey` checks it
 * against the route being called (its scopes, its rate limit).
 * The request's logger is then a child naming the company and the user.
 */
export function requireSession(
  scope: FastifyInstance,
  authenticate: Authenticate,
  authenticateKey?: (key: string, request: FastifyRequest) => Promise<RequestContext>,
): void {
  scope.decorateRequest('ctx', null as never);
  scope.addHook('onRequest', async (request) => {
    const token = bearerToken(request);
    if (!token) throw new AppError('ERR_SESSION_EXPIRED', 401);
    const isKey = Boolean(authenticateKey) && token.startsWith(API_KEY_PREFIX);
    const ctx = isKey && authenticateKey ? await authenticateKey(token, request) : await authenticate(token);
    // From here every line logged for this request, by any area, names its company and user.
    noteLogUser(ctx.companyId, ctx.user.id);
    if (!ctx.user.super && isCompanySuspended(ctx.company)) throw new AppError('ERR_COMPANY_SUSPENDED');
    if (!ctx.user.super && !request.routeOptions.config.allowExpiredCompany && isCompanyExpired(ctx.company)) {
      throw new AppError('ERR_SUBSCRIPTION_EXPIRED', undefined, { dueDate: ctx.company.dueDate });
    }
    // A company that requires a second factor: a session without one only sets it up (a key is no sign-in).
    if (!isKey && ctx.user.twoFactorSetupRequired && !request.routeOptions.config.allowTwoFactorSetup) throw new AppError('ERR_TWO_FACTOR_SETUP_REQUIRED');
    request.ctx = { ...ctx, client: requestClient(request) };
  });
}
