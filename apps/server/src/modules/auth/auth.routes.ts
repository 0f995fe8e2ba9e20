import { LoginBody } from '@atende/shared';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { tooManyRequests } from '../../platform/http/app-error.js';
import { bearerToken, requestClient } from '../../platform/http/auth-hook.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import type { Platform } from '../../platform/platform.js';
import { presentUser } from '../users/users.presenter.js';
import { currentUser, login, logout, refresh, type AuthDeps } from './auth.service.js';
import { DEVICE_COOKIE, DEVICE_COOKIE_MAX_AGE_SECONDS } from './device-cookie.js';

export const REFRESH_COOKIE = 'jrt';

function setRefreshCookie(reply: FastifyReply, config: Platform['config'], value: string): void {
  reply.setCookie(REFRESH_COOKIE, value, {
    httpOnly: true,
    sameSite: 'lax',
    secure: config.isProduction,
    path: '/auth',
    maxAge: config.REFRESH_TOKEN_TTL_SECONDS,
  });
}

export function registerAuthPublicRoutes(scope: FastifyInstance, deps: AuthDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  // An address this node knows is over its limit is answered before its body is read
  // and validated: a flood's refusals cost as little as possible (a device's attempt
  // is judged by its device alone, so it goes through).
  const refuseKnownFlood = async (request: FastifyRequest) => {
    if (request.cookies[DEVICE_COOKIE]) return;
    const wait = deps.loginLimiter.refusedAddress(request.ip);
    if (wait > 0) throw tooManyRequests(wait);
  };

  app.post('/auth/login', { schema: { body: LoginBody }, onRequest: refuseKnownFlood }, async (request, reply) => {
    const session = await login(deps, { ...request.body, ip: request.ip, userAgent: requestClient(request).userAgent, deviceCookie: request.cookies[DEVICE_COOKIE] });
    // The password was right; the account's second factor is asked next (no session yet).
    if ('twoFactorRequired' in session) return session;
    setRefreshCookie(reply, deps.config, session.refreshToken);
    // This browser is now a known device of the account (login-limiter.ts).
    reply.setCookie(DEVICE_COOKIE, session.deviceCookie, {
      httpOnly: true,
      sameSite: 'lax',
      secure: deps.config.isProduction,
      path: '/auth',
      maxAge: DEVICE_COOKIE_MAX_AGE_SECONDS,
    });
    return { token: session.token, user: presentUser(session.user) };
  });

  app.post('/auth/refresh_token', async (request, reply) => {
    try {
      const session = await refresh(deps, request.cookies[REFRESH_COOKIE]);
      setRefreshCookie(reply, deps.config, session.refreshToken);
      return { token: session.token, user: presentUser(session.user) };
    } catch (error) {
      reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
      throw error;
    }
  });

  // Public on purpose: logging out must work with an expired access token.
  app.delete('/auth/logout', async (request, reply) => {
    await logout(deps, request.cookies[REFRESH_COOKIE], bearerToken(request));
    reply.clearCookie(REFRESH_COOKIE, { path: '/auth' });
    return reply.status(204).send();
  });
}

export function registerAuthPrivateRoutes(scope: FastifyInstance, deps: Pick<Platform, 'db'>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.get('/auth/me', { config: { allowExpiredCompany: true, allowTwoFactorSetup: true } }, async (request) => presentUser(await currentUser(deps, request.ctx)));
}
