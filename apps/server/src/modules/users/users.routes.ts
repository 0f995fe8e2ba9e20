import { IdParams, LANGUAGES, PageQuery, UserCreateBody, UserUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { bearerToken } from '../../platform/http/auth-hook.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { currentFamily } from '../auth/auth.service.js';
import { REFRESH_COOKIE } from '../auth/auth.routes.js';
import type { TokenService } from '../auth/tokens.js';
import { presentUser } from './users.presenter.js';
import { createUser, deleteUser, listCompanyUsers, listUserOptions, myLanguage, setLanguage, showUser, updateUser, type UsersDeps } from './users.service.js';

/** The users module's ports, and the tokens that name the sign-in making a request (it survives its own password change). */
export function registerUserRoutes(scope: FastifyInstance, deps: UsersDeps & { tokens: TokenService }): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/users', { schema: { querystring: PageQuery } }, async (request) => {
    const page = await listCompanyUsers(deps, request.ctx, request.query);
    return { users: page.users.map(presentUser), count: page.count, hasMore: page.hasMore };
  });

  // `companyId` is accepted for compatibility and ignored: a user only ever lists its own company.
  app.get('/users/list', { schema: { querystring: z.object({ companyId: z.string().optional() }) } }, async (request) => {
    return (await listUserOptions(deps, request.ctx)).map(presentUser);
  });

  app.get('/users/:id', { schema: { params: IdParams } }, async (request) => {
    return presentUser(await showUser(deps, request.ctx, request.params.id));
  });

  app.post('/users', { schema: { body: UserCreateBody } }, async (request, reply) => {
    const user = await createUser(deps, request.ctx, request.body);
    return reply.status(201).send(presentUser(user));
  });

  app.put('/users/:id', { schema: { params: IdParams, body: UserUpdateBody } }, async (request) => {
    // The sign-in making the request survives its own password change: named by the
    // access token (the refresh cookie is scoped to /auth and rarely reaches this route).
    const claims = await deps.tokens.verifyAccess(bearerToken(request) ?? '');
    const family = claims.familyId ?? (await currentFamily(deps, request.cookies[REFRESH_COOKIE]));
    return presentUser(await updateUser(deps, request.ctx, request.params.id, request.body, family));
  });

  app.delete('/users/:id', { schema: { params: IdParams } }, async (request) => {
    await deleteUser(deps, request.ctx, request.params.id);
    return { message: 'User deleted' };
  });

  app.get('/users/me/language', { config: { allowExpiredCompany: true } }, async (request) => myLanguage(deps, request.ctx));

  app.post(
    '/users/set-language/:lang',
    { schema: { params: z.object({ lang: z.enum(LANGUAGES, { error: 'validation.invalidValue' }) }) }, config: { allowExpiredCompany: true } },
    async (request) => {
      await setLanguage(deps, request.ctx, request.params.lang);
      return { language: request.params.lang };
    },
  );
}
