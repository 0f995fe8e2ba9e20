import { companyEvent } from '@atende/shared';
import { useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useSession } from '../../api/session';
import { useSocket } from '../../realtime/socket';
import type { Prompt } from './prompt-form';

export const promptsKey = ['prompts'] as const;

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
export function applyPromptEvent(list: readonly Prompt[], event: PromptEvent): Prompt[] {
  if (event.action === 'delete') return list.filter((prompt) => prompt.id !== Number(event.promptId));
  return [...list.filter((prompt) => prompt.id !== event.prompt.id), event.prompt].sort(byName);
}

export function cachePromptEvent(queryClient: QueryClient, event: PromptEvent): void {
  queryClient.setQueryData<Prompt[]>(promptsKey, (list) => (list ? applyPromptEvent(list, event) : list));
}

/** `company-{id}-prompt` (admins). */
export function usePromptEvents(): void {
  const socket = useSocket();
  const queryClient = useQueryClient();
  const { user } = useSession();
  const companyId = user?.companyId;
  useEffect(() => {
    if (!socket || !companyId) return;
    const event = companyEvent(companyId, 'prompt');
    const handler = (payload: PromptEvent) => cachePromptEvent(queryClient, payload);
    socket.on(event, handler);
    return () => {
      socket.off(event, handler);
    };
  }, [socket, companyId, queryClient]);
}
