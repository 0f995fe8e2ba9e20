import type { PresentedPrompt } from '@atende/shared';
import { maskSecret, type SecretBox } from '../../platform/crypto/secret-box.js';
import type { PromptDetail } from './prompts.repo.js';

/** The API key never leaves in full: the dialog shows it masked and may send the mask back unchanged. */
export function presentPrompt(prompt: PromptDetail, secrets: SecretBox): PresentedPrompt {
  return {
    id: prompt.id,
    name: prompt.name,
    prompt: prompt.prompt,
    model: prompt.model,
    maxTokens: prompt.maxTokens,
    // Stored as a 4-byte real: 0.7 reads back as 0.699999988.
    temperature: Math.round(prompt.temperature * 100) / 100,
    maxMessages: prompt.maxMessages,
    apiKey: maskedKey(prompt.apiKeySealed, secrets),
    queueId: prompt.queueId,
    queue: prompt.queue,
    companyId: prompt.companyId,
    createdAt: prompt.createdAt.toISOString(),
    updatedAt: prompt.updatedAt.toISOString(),
  };
}

export function maskedKey(sealed: string, secrets: SecretBox): string {
  if (!sealed) return '';
  try {
    return maskSecret(secrets.open(sealed));
  } catch {
    // A key sealed under another ENCRYPTION_KEY cannot be read: show that something is stored.
    return '••••';
  }
}
