import { IdParams, LANGUAGES, PageQuery, UserCreateBody, UserUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import { AppError } from '../../platform/http/app-error.js';
import { bearerToken } from '../../platform/http/auth-hook.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { currentFamily } from '../auth/auth.service.js';
import { REFRESH_COOKIE } from '../auth/auth.routes.js';
import { presentUser } from './users.presenter.js';
import { findUser, listAllUsers, listUsers } from './users.repo.js';
import { createUser, deleteUser, setLanguage, updateUser } from './users.service.js';

export function registerUserRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/users', { schema: { querystring: PageQuery } }, async (request) => {
    const page = await listUsers(services.db, request.ctx, request.query);
    return { users: page.users.map(presentUser), count: page.count, hasMore: page.hasMore };
  });

  // `companyId` is accepted for compatibility and ignored: a user only ever lists its own company.
  app.get('/users/list', { schema: { querystring: z.object({ companyId: z.string().optional() }) } }, async (request) => {
    return (await listAllUsers(services.db, request.ctx)).map(presentUser);
  });

  app.get('/users/:id', { schema: { params: IdParams } }, async (request) => {
    const user = await findUser(services.db, request.ctx, request.params.id);
    if (!user) throw new AppError('ERR_NO_USER_FOUND');
    return presentUser(user);
  });

  app.post('/users', { schema: { body: UserCreateBody } }, async (request, reply) => {
    const user = await createUser(services, request.ctx, request.body);
    return reply.status(201).send(presentUser(user));
  });

  app.put('/users/:id', { schema: { params: IdParams, body: UserUpdateBody } }, async (request) => {
    // The sign-in making the request survives its own password change: named by the
    // access token (the refresh cookie is scoped to /auth and rarely reaches this route).
    const claims = await services.tokens.verifyAccess(bearerToken(request) ?? '');
    const family = claims.familyId ?? (await currentFamily(services, request.cookies[REFRESH_COOKIE]));
    return presentUser(await updateUser(services, request.ctx, request.params.id, request.body, family));
  });

  app.delete('/users/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteUser(services, request.ctx, request.params.id);
    return { message: 'User deleted' };
  });

  app.post(
    '/users/set-language/:lang',
    { schema: { params: z.object({ lang: z.enum(LANGUAGES, { error: 'validation.invalidValue' }) }) }, config: { allowExpiredCompany: true } },
    async (request) => {
      await setLanguage(services, request.ctx, request.params.lang);
      return { language: request.params.lang };
    },
  );
}
