import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentPrompt } from './prompts.presenter.js';
import type { PromptDetail } from './prompts.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'prompt.saved': { companyId: number; action: 'create' | 'update'; prompt: PromptDetail };
    'prompt.deleted': { companyId: number; promptId: number };
  }
}

/** Spec part 2 §7: `company-{id}-prompt`. Prompts are an admin page, so only the company's admins hear them. */
export function subscribePromptEvents({ events, publisher, secrets }: Pick<Platform, 'events' | 'publisher' | 'secrets'>): void {
  events.on('prompt.saved', ({ companyId, action, prompt }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'prompt', { action, prompt: presentPrompt(prompt, secrets) });
  });
  events.on('prompt.deleted', ({ companyId, promptId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'prompt', { action: 'delete', promptId });
  });
}
