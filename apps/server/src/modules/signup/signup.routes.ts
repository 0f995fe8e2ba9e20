import { LANGUAGES, SignupBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { platformSetting, publicAuthOptions, signup, trialDays, type SignupDeps } from './signup.service.js';

/** The reader's language for the e-mail, when the web app says it (the spec's client does not). */
const SignupRequest = SignupBody.extend({ language: z.enum(LANGUAGES).optional().catch(undefined) });

export function registerSignupRoutes(scope: FastifyInstance, deps: SignupDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.post('/companies/cadastro', { schema: { body: SignupRequest } }, async (request, reply) => {
    const { language, ...body } = request.body;
    await signup(deps, { body, ip: request.ip, language, log: (error) => request.log.warn({ err: error }, 'sign-up e-mail not sent') });
    return reply.status(201).send({ message: 'received' });
  });

  app.get('/auth/options', async () => publicAuthOptions(deps));

  // The whaticket v6 client reads its sign-up switches before login (`data.value`), under its
  // own keys: both answer whether sign-up is open (`publicSignup`), `trial` the trial's days.
  const signupSwitch = async (key: 'viewregister' | 'allowregister') => ({ key, value: (await publicAuthOptions(deps)).signupEnabled ? 'enabled' : 'disabled' });
  app.get('/settings/viewregister', async () => signupSwitch('viewregister'));
  app.get('/settings/allowregister', async () => signupSwitch('allowregister'));
  app.get('/settings/trial', async () => ({ key: 'trial', value: String(await trialDays(deps)) }));
  // v6's start-up language (`data.language`): the main company's language, before anyone signs in.
  app.get('/settings/system-default-language', async () => {
    const language = (await platformSetting(deps, 'language')) ?? 'pt';
    return { key: 'system-default-language', value: language, language };
  });
}
