import { EmailParams, LANGUAGES, ResetPasswordBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import { requestClient } from '../../platform/http/auth-hook.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { requestReset, resetPassword, revealsUnknownEmail, type PasswordResetDeps } from './password-reset.service.js';

const ForgetQuery = z.object({ language: z.enum(LANGUAGES).optional().catch(undefined) });

/**
 * Password reset (spec part 2 §2.19, §7). Both spec routes carry the e-mail in the
 * path, and the reset the code and the new password too: `redactUrl` keeps them out
 * of every log. The web app uses `POST /auth/reset-password` with a body.
 */
export function registerPasswordResetRoutes(scope: FastifyInstance, deps: PasswordResetDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/forgetpassword/:email', { schema: { params: EmailParams, querystring: ForgetQuery } }, async (request) => {
    const { found } = await requestReset(deps, {
      email: request.params.email,
      ip: request.ip,
      client: requestClient(request),
      language: request.query.language,
      log: (error) => request.log.warn({ err: error }, 'password reset e-mail not sent'),
    });
    if (!found && (await revealsUnknownEmail(deps))) return { status: 404, message: 'Email not found' };
    return { status: 200, message: 'If the e-mail has an account, a code was sent to it.' };
  });

  app.post('/resetpasswords/:email/:token/:newPassword', { schema: { params: ResetPasswordBody } }, async (request) => {
    await resetPassword(deps, request.params, requestClient(request));
    return { message: 'Password updated' };
  });

  app.post('/auth/reset-password', { schema: { body: ResetPasswordBody } }, async (request) => {
    await resetPassword(deps, request.body, requestClient(request));
    return { message: 'Password updated' };
  });
}
