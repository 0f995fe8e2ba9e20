import { IdParams, TwoFactorDisableBody, TwoFactorEnableBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { DEVICE_COOKIE } from '../auth/device-cookie.js';
import type { LoginLimiter } from '../auth/login-limiter.js';
import { disableSecondFactor, enableSecondFactor, resetSecondFactor, setUpTwoFactor, twoFactorStatus, type TwoFactorDeps } from './two-factor.service.js';

/** Two-factor sign-in (issue 35): the caller's own second factor, and a super user's reset of someone's. */
export function registerTwoFactorRoutes(scope: FastifyInstance, deps: TwoFactorDeps & { loginLimiter: LoginLimiter }): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  // A session the company limits to setting a second factor up reaches these (auth-hook.ts).
  const setup = { allowTwoFactorSetup: true, allowExpiredCompany: true };

  app.get('/auth/2fa', { config: setup }, async (request) => twoFactorStatus(deps, request.ctx));

  app.post('/auth/2fa/setup', { config: setup }, async (request, reply) => {
    // The secret is in this answer only.
    reply.header('cache-control', 'no-store');
    return setUpTwoFactor(deps, request.ctx);
  });

  app.post('/auth/2fa/enable', { schema: { body: TwoFactorEnableBody }, config: setup }, async (request, reply) => {
    reply.header('cache-control', 'no-store');
    return enableSecondFactor(deps, request.ctx, request.body.code);
  });

  app.post('/auth/2fa/disable', { schema: { body: TwoFactorDisableBody }, config: { allowExpiredCompany: true } }, async (request, reply) => {
    await disableSecondFactor(deps, request.ctx, request.body, { ip: request.ip, deviceCookie: request.cookies[DEVICE_COOKIE] });
    return reply.status(204).send();
  });

  app.post('/users/:id/2fa/reset', { schema: { params: IdParams } }, async (request, reply) => {
    await resetSecondFactor(deps, request.ctx, request.params.id);
    return reply.status(204).send();
  });
}
