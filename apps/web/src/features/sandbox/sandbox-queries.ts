import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

/** One message on the customer's phone (`GET /sandbox/:whatsappId/conversation`), both sides in order. */
export interface PhoneEntry {
  id: string;
  fromCustomer: boolean;
  body: string;
  mediaType: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  /** The id of the message a reply quotes (shown above it), or null. */
  quotedId?: string | null;
  deleted: boolean;
  createdAt: string;
}

/** Replies land in the sandbox outbox, which no event announces: poll while the page is visible. */
const CONVERSATION_POLL_MS = 2000;

export const sandboxKeys = {
  connection: (whatsappId: number) => ['sandbox', whatsappId] as const,
  conversation: (whatsappId: number, number: string) => ['sandbox', whatsappId, number] as const,
};

export function useConversation(whatsappId: number | null, number: string | null) {
  const { api } = useSession();
  return useQuery({
    queryKey: sandboxKeys.conversation(whatsappId ?? 0, number ?? ''),
    queryFn: () => api.get<PhoneEntry[]>(`/sandbox/${whatsappId}/conversation`, { number }),
    enabled: whatsappId !== null && number !== null,
    // TanStack pauses the interval while the tab is hidden (refetchIntervalInBackground is off).
    refetchInterval: CONVERSATION_POLL_MS,
    staleTime: 0,
  });
}

interface AppMessageEvent {
  ticket?: { whatsappId: number | null };
}

/**
 * Admins hear every ticket's messages (`company-{id}-appMessage`): a message on
 * this connection refreshes the phone at once instead of at the next poll.
 */
export function useConversationRefreshOnMessages(whatsappId: number | null): void {
  const queryClient = useQueryClient();
  // The provider writes the outbox before the message event goes out, so one refetch sees the reply.
  useCompanyEvent<AppMessageEvent>('appMessage', (payload) => {
    if (whatsappId === null) return;
    if (payload.ticket?.whatsappId === whatsappId) void queryClient.invalidateQueries({ queryKey: sandboxKeys.connection(whatsappId) });
  });
}
