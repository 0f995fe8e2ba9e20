import { PROMPT_DEFAULTS, PromptBody, type PromptModel } from '@atende/shared';
import { z } from 'zod';

/** A prompt as `/prompt` answers it (the API key masked). */
export interface Prompt {
  id: number;
  name: string;
  prompt: string;
  model: string;
  maxTokens: number;
  temperature: number;
  maxMessages: number;
  apiKey: string;
  queueId: number | null;
  queue: { id: number; name: string } | null;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

/** The dialog's fields: numbers stay text while typed, the queue is '' until chosen. */
export interface PromptFormValues {
  name: string;
  prompt: string;
  model: PromptModel;
  maxTokens: number | string;
  temperature: number | string;
  maxMessages: number | string;
  apiKey: string;
  queueId: number | '';
}

/** Model choices and how the dialog names them (spec part 2 §9). */
export const MODEL_LABELS: Record<PromptModel, string> = {
  'gpt-3.5-turbo-1106': 'GPT 3.5 turbo',
  'gpt-4o-mini': 'GPT 4.0',
};

/** Spec part 2 §5: temperature 0 to 1 in steps of 0.1. */
export const TEMPERATURE = { min: 0, max: 1, step: 0.1 } as const;

/**
 * What the dialog starts with: the spec's defaults for a new prompt (§9), the
 * stored values for an edit. The stored key arrives masked; sent back unchanged
 * it keeps the key the server holds.
 */
export function promptFormDefaults(prompt: Prompt | null): PromptFormValues {
  if (!prompt) {
    return {
      name: '',
      prompt: '',
      model: PROMPT_DEFAULTS.model,
      maxTokens: PROMPT_DEFAULTS.maxTokens,
      temperature: PROMPT_DEFAULTS.temperature,
      maxMessages: PROMPT_DEFAULTS.maxMessages,
      apiKey: '',
      queueId: '',
    };
  }
  return {
    name: prompt.name,
    prompt: prompt.prompt,
    model: prompt.model in MODEL_LABELS ? (prompt.model as PromptModel) : PROMPT_DEFAULTS.model,
    maxTokens: prompt.maxTokens,
    temperature: prompt.temperature,
    maxMessages: prompt.maxMessages,
    apiKey: prompt.apiKey,
    queueId: prompt.queueId ?? '',
  };
}

/** A queue must be chosen before anything is sent (spec part 2 §5: the sector-required message). */
export function hasSector(values: Pick<PromptFormValues, 'queueId'>): boolean {
  return values.queueId !== '' && Number(values.queueId) > 0;
}

/**
 * The dialog's schema: the shared one, except that a missing queue reads as the
 * sector-required message (spec part 2 §5, §8) instead of a generic number error.
 */
export const PromptFormSchema = PromptBody.extend({
  queueId: z.coerce.number({ error: 'prompts.sectorRequired' }).int('prompts.sectorRequired').positive('prompts.sectorRequired'),
});
