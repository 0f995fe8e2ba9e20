import type { PresentedChat, PresentedChatMessage } from '@atende/shared';
import type { ChatDetail, ChatMessageDetail } from './chats.repo.js';

/** The spec's chat (part 2 §3): id, uuid, title, ownerId, users (userId, unreads, user), lastMessage, updatedAt. */
export function presentChat(chat: ChatDetail): PresentedChat {
  return {
    id: chat.id,
    uuid: chat.uuid,
    title: chat.title,
    ownerId: chat.ownerId,
    lastMessage: chat.lastMessage,
    createdAt: chat.createdAt.toISOString(),
    updatedAt: chat.updatedAt.toISOString(),
    users: chat.members.map((member) => ({ userId: member.userId, unreads: member.unreads, user: { id: member.userId, name: member.name } })),
  };
}

/** A chat message: message, senderId, sender name, createdAt (spec part 2 §3). */
export function presentChatMessage(message: ChatMessageDetail): PresentedChatMessage {
  return {
    id: message.id,
    chatId: message.chatId,
    message: message.message,
    senderId: message.senderId,
    sender: message.senderId !== null && message.senderName !== null ? { id: message.senderId, name: message.senderName } : null,
    createdAt: message.createdAt.toISOString(),
  };
}
