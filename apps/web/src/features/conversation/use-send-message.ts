import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { Message } from '../../api/desk-types';
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
      const sent = await api.post<Message[]>(`/messages/${ticketId}`, buildSendPayload(message));
      storeMessages(queryClient, ticketId, sent);
      return sent;
    },
    [api, queryClient, ticketId],
  );
}
