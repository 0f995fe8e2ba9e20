import { IdParams, PromptBody, PromptUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentPrompt } from './prompts.presenter.js';
import { assertMayManagePrompts, createPrompt, deletePrompt, listCompanyPrompts, showPrompt, updatePrompt, type PromptsDeps } from './prompts.service.js';

/** AI prompts (spec part 2 §7). The plan and role are checked before the body, so a refused caller learns nothing of it. */
export function registerPromptRoutes(scope: FastifyInstance, deps: PromptsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const guard = { preValidation: async (request: { ctx: Parameters<typeof assertMayManagePrompts>[0] }) => assertMayManagePrompts(request.ctx) };
  const present = (prompt: Parameters<typeof presentPrompt>[0]) => presentPrompt(prompt, deps.secrets);

  app.get('/prompt', guard, async (request) => {
    return { prompts: (await listCompanyPrompts(deps, request.ctx)).map(present) };
  });

  app.get('/prompt/:id', { schema: { params: IdParams }, ...guard }, async (request) => {
    return present(await showPrompt(deps, request.ctx, request.params.id));
  });

  app.post('/prompt', { schema: { body: PromptBody }, ...guard }, async (request, reply) => {
    return reply.status(201).send(present(await createPrompt(deps, request.ctx, request.body)));
  });

  app.put('/prompt/:id', { schema: { params: IdParams, body: PromptUpdateBody }, ...guard }, async (request) => {
    return present(await updatePrompt(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/prompt/:id', { schema: { params: IdParams }, ...guard }, async (request) => {
    await deletePrompt(deps, request.ctx, request.params.id);
    return { message: 'Prompt deleted' };
  });
}
