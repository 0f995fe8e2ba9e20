import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';
import type { Prompt } from './prompt-form';

const promptsKey = ['prompts'] as const;

/** `GET /prompt` answers `{prompts}`; `enabled` is false when the plan or the profile would be refused. */
export function usePrompts(enabled = true) {
  const { api } = useSession();
  return useQuery({
    queryKey: promptsKey,
    queryFn: async () => (await api.get<{ prompts: Prompt[] }>('/prompt')).prompts,
    enabled,
  });
}

export type PromptEvent = { action: 'create' | 'update'; prompt: Prompt } | { action: 'delete'; promptId: number };

const byName = (a: Prompt, b: Prompt) => a.name.localeCompare(b.name) || a.id - b.id;

/** Live create/update upsert (in the server's name order), delete removes (spec part 2 §4). */
function applyPromptEvent(list: readonly Prompt[], event: PromptEvent): Prompt[] {
  if (event.action === 'delete') return list.filter((prompt) => prompt.id !== Number(event.promptId));
  return [...list.filter((prompt) => prompt.id !== event.prompt.id), event.prompt].sort(byName);
}

export function cachePromptEvent(queryClient: QueryClient, event: PromptEvent): void {
  queryClient.setQueryData<Prompt[]>(promptsKey, (list) => (list ? applyPromptEvent(list, event) : list));
}

/** `company-{id}-prompt` (admins). */
export function usePromptEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<PromptEvent>('prompt', (payload) => cachePromptEvent(queryClient, payload));
  // The table shows each prompt's queue name: a renamed queue refreshes it.
  useCompanyEvent('queue', () => void queryClient.invalidateQueries({ queryKey: promptsKey }));
}
