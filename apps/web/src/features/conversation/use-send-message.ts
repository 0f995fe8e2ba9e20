import type { PresentedMessage } from '@atende/shared';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { storeMessages } from './conversation-queries';

export interface OutgoingMessage {
  body: string;
  files: File[];
  quotedMsgId: number | null;
  sign: boolean;
}

/**
 * The send payload (spec part 1 §3, §7). With files it is multipart: each file in
 * `medias`, and `body` is each file's name (the server then sends no caption),
 * unless the agent typed a caption, which goes once with the first file.
 */
export function buildSendPayload(message: OutgoingMessage): FormData | Record<string, unknown> {
  if (message.files.length === 0) {
    return { body: message.body, sign: message.sign, ...(message.quotedMsgId ? { quotedMsg: { id: message.quotedMsgId } } : {}) };
  }
  const form = new FormData();
  const caption = message.body.trim();
  for (const file of message.files) {
    form.append('medias', file, file.name);
    if (!caption) form.append('body', file.name);
  }
  if (caption) form.append('body', caption);
  form.append('sign', String(message.sign));
  if (message.quotedMsgId) form.append('quotedMsgId', String(message.quotedMsgId));
  return form;
}

export function useSendMessage(ticketId: number) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  return useCallback(
    async (message: OutgoingMessage) => {
      try {
        const sent = await api.post<PresentedMessage[]>(`/messages/${ticketId}`, buildSendPayload(message));
        storeMessages(queryClient, ticketId, sent);
        return sent;
      } catch (error) {
        storeFailedMessages(queryClient, ticketId, error);
        throw error;
      }
    },
    [api, queryClient, ticketId],
  );
}

/**
 * The messages a refused send or retry answers with (`messages` beside the
 * error code): stored on the server, failed, shown with their reason and a
 * Retry action. Returns whether there were any.
 */
function storeFailedMessages(queryClient: QueryClient, ticketId: number, error: unknown): boolean {
  const messages = error instanceof ApiError && Array.isArray(error.data.messages) ? (error.data.messages as PresentedMessage[]) : [];
  if (messages.length > 0) storeMessages(queryClient, ticketId, messages);
  return messages.length > 0;
}

/** Sends a failed message again (`POST /messages/:messageId/retry`); a new refusal keeps it failed, with the new reason. */
export function useRetryMessage(ticketId: number) {
  const { api } = useSession();
  const queryClient = useQueryClient();
  return useCallback(
    async (message: PresentedMessage) => {
      try {
        const sent = await api.post<PresentedMessage>(`/messages/${message.id}/retry`);
        storeMessages(queryClient, ticketId, [sent]);
        return sent;
      } catch (error) {
        storeFailedMessages(queryClient, ticketId, error);
        throw error;
      }
    },
    [api, queryClient, ticketId],
  );
}
