import { PromptBody } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { hasSector, MODEL_LABELS, promptFormDefaults, PromptFormSchema, type Prompt } from './prompt-form';

const stored: Prompt = {
  id: 3,
  name: 'Atendimento IA',
  prompt: 'x'.repeat(60),
  model: 'gpt-4o-mini',
  maxTokens: 300,
  temperature: 0.7,
  maxMessages: 5,
  apiKey: 'sk-••••abcd',
  queueId: 2,
  queue: { id: 2, name: 'Suporte' },
  companyId: 1,
  createdAt: '',
  updatedAt: '',
};

describe('prompt form', () => {
  it('starts a new prompt with the spec defaults and no queue', () => {
    expect(promptFormDefaults(null)).toEqual({
      name: '',
      prompt: '',
      model: 'gpt-3.5-turbo-1106',
      maxTokens: 100,
      temperature: 1,
      maxMessages: 10,
      apiKey: '',
      queueId: '',
    });
  });

  it('offers the two models under the names the spec gives', () => {
    expect(MODEL_LABELS).toEqual({ 'gpt-3.5-turbo-1106': 'GPT 3.5 turbo', 'gpt-4o-mini': 'GPT 4.0' });
  });

  it('edits the stored values and sends the masked key back unchanged', () => {
    const values = promptFormDefaults(stored);
    expect(values).toMatchObject({ model: 'gpt-4o-mini', temperature: 0.7, apiKey: 'sk-••••abcd', queueId: 2 });
    expect(PromptBody.parse(values)).toMatchObject({ apiKey: 'sk-••••abcd', queueId: 2, maxTokens: 300 });
  });

  it('asks for the sector before anything is saved', () => {
    expect(hasSector(promptFormDefaults(null))).toBe(false);
    expect(hasSector({ queueId: 2 })).toBe(true);
    // The shared schema refuses the missing queue too, so nothing can be sent without it.
    expect(PromptBody.safeParse({ ...promptFormDefaults(null), name: 'Vendas IA', prompt: 'y'.repeat(50), apiKey: 'sk-1' }).success).toBe(false);
  });

  it('keeps the temperature between 0 and 1', () => {
    const base = { ...promptFormDefaults(stored) };
    expect(PromptBody.safeParse({ ...base, temperature: '0.3' }).success).toBe(true);
    expect(PromptBody.safeParse({ ...base, temperature: 1.1 }).success).toBe(false);
    expect(PromptBody.safeParse({ ...base, temperature: -0.1 }).success).toBe(false);
  });

  it('names a missing sector with the sector-required message, whatever the empty value', () => {
    const base = { ...promptFormDefaults(stored) };
    for (const queueId of ['', 0, undefined]) {
      const result = PromptFormSchema.safeParse({ ...base, queueId });
      expect(result.success).toBe(false);
      expect(result.error?.issues.find((issue) => issue.path[0] === 'queueId')?.message).toBe('prompts.sectorRequired');
    }
    expect(PromptFormSchema.parse({ ...base, queueId: 2 }).queueId).toBe(2);
  });

  it('keeps the name between 5 and 100 characters and the prompt at 50 or more', () => {
    const base = { ...promptFormDefaults(stored) };
    expect(PromptFormSchema.safeParse({ ...base, name: 'Abcd' }).success).toBe(false);
    expect(PromptFormSchema.safeParse({ ...base, name: 'Abcde' }).success).toBe(true);
    expect(PromptFormSchema.safeParse({ ...base, name: 'a'.repeat(101) }).success).toBe(false);
    expect(PromptFormSchema.safeParse({ ...base, prompt: 'p'.repeat(49) }).success).toBe(false);
    expect(PromptFormSchema.safeParse({ ...base, model: 'gpt-4' }).success).toBe(false);
    expect(PromptFormSchema.safeParse({ ...base, apiKey: '  ' }).success).toBe(false);
  });
});
