import type { ChatEventPayload } from '@atende/shared';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentChat, presentChatMessage } from './chats.presenter.js';
import type { ChatDetail, ChatMessageDetail } from './chats.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    /** `memberIds`: the members when the change committed; `removedIds`: who left the chat with it. */
    'chat.saved': { companyId: number; chat: ChatDetail; removedIds: number[] };
    'chat.deleted': { companyId: number; chatId: number; memberIds: number[] };
    /** Read by `userId`: only that user's view changes. */
    'chat.read': { companyId: number; chat: ChatDetail; userId: number };
    'chat.message': { companyId: number; chat: ChatDetail; message: ChatMessageDetail };
  }
}

/**
 * `company-{id}-chat` goes to the members' own user rooms, never to the company
 * room: a colleague outside the chat hears nothing of it. The members are those of
 * the committed change, so a member removed before a message does not get it.
 */
export function subscribeChatEvents({ events, publisher }: Pick<Platform, 'events' | 'publisher'>): void {
  const send = (companyId: number, userIds: number[], payload: ChatEventPayload) => {
    if (userIds.length === 0) return;
    publisher.toRooms(companyId, userIds.map((userId) => rooms.user(companyId, userId)), 'chat', payload);
  };
  const memberIds = (chat: ChatDetail) => chat.members.map((member) => member.userId);

  events.on('chat.saved', ({ companyId, chat, removedIds }) => {
    send(companyId, removedIds, { action: 'delete', id: chat.id });
    send(companyId, memberIds(chat), { action: 'update', chat: presentChat(chat) });
  });
  events.on('chat.deleted', ({ companyId, chatId, memberIds: ids }) => send(companyId, ids, { action: 'delete', id: chatId }));
  events.on('chat.read', ({ companyId, chat, userId }) => send(companyId, [userId], { action: 'update', chat: presentChat(chat) }));
  events.on('chat.message', ({ companyId, chat, message }) => {
    send(companyId, memberIds(chat), { action: 'new-message', newMessage: presentChatMessage(message), chat: presentChat(chat) });
  });
}
