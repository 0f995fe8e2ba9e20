import type { PromptBody, PromptUpdateBody } from '@atende/shared';
import { queues } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { maskedKey } from './prompts.presenter.js';
import { deletePromptRow, findPrompt, insertPrompt, listPrompts, updatePromptRow, type PromptDetail, type PromptValues } from './prompts.repo.js';

/** The prompts module's ports: the database, the domain events and the box that seals the API keys. */
export type PromptsDeps = Pick<Platform, 'db' | 'events' | 'secrets'>;

/** Prompts are an admin page of plans with AI (spec part 2 §2.12, §6). */
export function assertMayManagePrompts(ctx: RequestContext): void {
  requireFeature(ctx, 'useOpenAi');
  requireAdmin(ctx);
}

export async function listCompanyPrompts(deps: PromptsDeps, ctx: RequestContext): Promise<PromptDetail[]> {
  return listPrompts(deps.db, ctx);
}

export async function showPrompt(deps: PromptsDeps, ctx: RequestContext, id: number): Promise<PromptDetail> {
  const prompt = await findPrompt(deps.db, ctx, id);
  if (!prompt) throw new AppError('ERR_NO_PROMPT_FOUND');
  return prompt;
}

export async function createPrompt(deps: PromptsDeps, ctx: RequestContext, body: PromptBody): Promise<PromptDetail> {
  await assertIdsInTenant(deps.db, ctx, queues, [body.queueId], 'ERR_NO_QUEUE_FOUND');
  const id = await insertPrompt(deps.db, ctx, {
    name: body.name,
    prompt: body.prompt,
    model: body.model,
    maxTokens: body.maxTokens,
    temperature: body.temperature,
    maxMessages: body.maxMessages,
    apiKeySealed: deps.secrets.seal(body.apiKey),
    queueId: body.queueId,
  });
  if (id === null) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  const prompt = await showPrompt(deps, ctx, id);
  deps.events.emit('prompt.saved', { companyId: ctx.companyId, action: 'create', prompt });
  return prompt;
}

export async function updatePrompt(deps: PromptsDeps, ctx: RequestContext, id: number, body: PromptUpdateBody): Promise<PromptDetail> {
  const current = await showPrompt(deps, ctx, id);
  if (body.queueId !== undefined) await assertIdsInTenant(deps.db, ctx, queues, [body.queueId], 'ERR_NO_QUEUE_FOUND');
  const values: Partial<PromptValues> = {
    name: body.name,
    prompt: body.prompt,
    model: body.model,
    maxTokens: body.maxTokens,
    temperature: body.temperature,
    maxMessages: body.maxMessages,
    queueId: body.queueId,
  };
  // The dialog shows the key masked; the mask sent back unchanged keeps the stored key.
  if (body.apiKey !== undefined && body.apiKey !== maskedKey(current.apiKeySealed, deps.secrets)) {
    values.apiKeySealed = deps.secrets.seal(body.apiKey);
  }
  await updatePromptRow(deps.db, ctx, id, values);
  const prompt = await showPrompt(deps, ctx, id);
  deps.events.emit('prompt.saved', { companyId: ctx.companyId, action: 'update', prompt });
  return prompt;
}

/** Tickets, queues and connections using it go on without it (foreign keys set null). */
export async function deletePrompt(deps: PromptsDeps, ctx: RequestContext, id: number): Promise<void> {
  await showPrompt(deps, ctx, id);
  await deletePromptRow(deps.db, ctx, id);
  deps.events.emit('prompt.deleted', { companyId: ctx.companyId, promptId: id });
}
