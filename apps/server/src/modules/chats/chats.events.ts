import type { ChatEventPayload } from '@atende/shared';
import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { whaticketV6Events } from '../../platform/realtime/whaticket-v6.js';
import { presentChat, presentChatMessage } from './chats.presenter.js';
import type { ChatDetail, ChatMessageDetail } from './chats.repo.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    /** `chat.members`: the members when the change committed; `addedIds` / `removedIds`: who joined / left with it. */
    'chat.saved': { companyId: number; chat: ChatDetail; addedIds: number[]; removedIds: number[] };
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

  events.on('chat.saved', ({ companyId, chat, addedIds, removedIds }) => {
    send(companyId, removedIds, { action: 'delete', id: chat.id });
    const presented = presentChat(chat);
    send(companyId, memberIds(chat), { action: 'update', chat: presented });
    // The whaticket v6 client: each member's chat list, and the chat itself when open.
    for (const userId of memberIds(chat)) {
      const action = addedIds.includes(userId) ? 'create' : 'update';
      publisher.broadcast([rooms.user(companyId, userId)], whaticketV6Events.chatUser(companyId, userId), { action, record: presented });
    }
    // Not for a chat just made: v6's open-chat handler would put back the list it had before the `create`.
    if (addedIds.length < chat.members.length) toOpenChat(companyId, chat, { action: 'update', chat: presented });
  });
  events.on('chat.deleted', ({ companyId, chatId, memberIds: ids }) => send(companyId, ids, { action: 'delete', id: chatId }));
  events.on('chat.read', ({ companyId, chat, userId }) => send(companyId, [userId], { action: 'update', chat: presentChat(chat) }));
  events.on('chat.message', ({ companyId, chat, message }) => {
    const presented = presentChat(chat);
    const payload = { action: 'new-message', newMessage: { ...presentChatMessage(message), chat: presented }, chat: presented } as const;
    send(companyId, memberIds(chat), payload);
    toOpenChat(companyId, chat, payload);
  });

  /** `company-{id}-chat-{chatId}`, which the whaticket v6 client hears while the chat is open. */
  function toOpenChat(companyId: number, chat: ChatDetail, payload: ChatEventPayload) {
    const members = memberIds(chat);
    if (members.length > 0) publisher.broadcast(members.map((userId) => rooms.user(companyId, userId)), whaticketV6Events.chat(companyId, chat.id), payload);
  }
}
