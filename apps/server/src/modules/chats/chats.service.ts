import type { ChatBody, ChatListQuery, ChatMessageBody, ChatUpdateBody } from '@atende/shared';
import type { DbOrTx } from '../../platform/db/client.js';
import { users, type ChatRow } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import {
  clearUnreads,
  countUnreadChats,
  deleteChatRow,
  findChat,
  insertChat,
  insertChatMessage,
  isMember,
  listChatMessages,
  listChatPage,
  listMembers,
  renameChat,
  replaceMembers,
  withMembers,
  type ChatDetail,
  type ChatMessageDetail,
} from './chats.repo.js';

export type ChatsDeps = Pick<Platform, 'db' | 'events' | 'publisher'>;

type ChatRef = number | string;

async function detail(db: DbOrTx, ctx: RequestContext, chat: ChatRow): Promise<ChatDetail> {
  const [full] = await withMembers(db, ctx, [chat]);
  return full!;
}

/** Another company's chat is not found; a chat the caller is not in is refused. */
async function memberChat(db: DbOrTx, ctx: RequestContext, ref: ChatRef, forUpdate = false): Promise<ChatRow> {
  const chat = await findChat(db, ctx, ref, forUpdate);
  if (!chat) throw new AppError('ERR_NO_CHAT_FOUND');
  if (!(await isMember(db, ctx, chat.id, ctx.user.id))) throw new AppError('ERR_NOT_CHAT_MEMBER');
  return chat;
}

async function ownedChat(db: DbOrTx, ctx: RequestContext, ref: ChatRef): Promise<ChatRow> {
  const chat = await memberChat(db, ctx, ref, true);
  if (chat.ownerId !== ctx.user.id) throw new AppError('ERR_NOT_CHAT_OWNER');
  return chat;
}

/** The members a body names, checked inside the company; at least one besides the owner (spec part 2 §5). */
async function chosenMembers(db: DbOrTx, ctx: RequestContext, userIds: number[]): Promise<number[]> {
  await assertIdsInTenant(db, ctx, users, userIds, 'ERR_NO_USER_FOUND');
  const others = [...new Set(userIds)].filter((userId) => userId !== ctx.user.id);
  if (others.length === 0) throw new AppError('ERR_VALIDATION', undefined, { message: 'Choose at least one user', fields: { users: ['Required'] } });
  return [ctx.user.id, ...others];
}

/** The caller's chats, most recently active first. */
export function chatPage(deps: Pick<Platform, 'db'>, ctx: RequestContext, query: ChatListQuery) {
  return listChatPage(deps.db, ctx, ctx.user.id, query);
}

/** How many of the caller's chats have messages it has not read (the side menu's dot, the top bar's badge). */
export function unreadChats(deps: Pick<Platform, 'db'>, ctx: RequestContext): Promise<number> {
  return countUnreadChats(deps.db, ctx, ctx.user.id);
}

export async function showChat(deps: Pick<Platform, 'db'>, ctx: RequestContext, ref: ChatRef): Promise<ChatDetail> {
  return detail(deps.db, ctx, await memberChat(deps.db, ctx, ref));
}

/** The caller owns the chat it creates and is always one of its members. */
export async function createChat(deps: ChatsDeps, ctx: RequestContext, body: ChatBody): Promise<ChatDetail> {
  const chat = await deps.db.transaction(async (tx) => {
    const memberIds = await chosenMembers(tx, ctx, body.users);
    const row = await insertChat(tx, ctx, { title: body.title, ownerId: ctx.user.id });
    await replaceMembers(tx, ctx, row.id, memberIds);
    return detail(tx, ctx, row);
  });
  deps.events.emit('chat.saved', { companyId: ctx.companyId, chat, addedIds: chat.members.map((member) => member.userId), removedIds: [] });
  return chat;
}

/** Owner only. Members sent replace the chat's (the owner stays); a removed member hears `delete` and nothing after. */
export async function updateChat(deps: ChatsDeps, ctx: RequestContext, ref: ChatRef, body: ChatUpdateBody): Promise<ChatDetail> {
  const { chat, addedIds, removedIds } = await deps.db.transaction(async (tx) => {
    const current = await ownedChat(tx, ctx, ref);
    const before = (await listMembers(tx, ctx, [current.id])).get(current.id) ?? [];
    if (body.title !== undefined) {
      await renameChat(tx, ctx, current.id, body.title);
    }
    let added: number[] = [];
    let removed: number[] = [];
    if (body.users !== undefined) {
      const memberIds = await chosenMembers(tx, ctx, body.users);
      await replaceMembers(tx, ctx, current.id, memberIds);
      const beforeIds = before.map((member) => member.userId);
      added = memberIds.filter((userId) => !beforeIds.includes(userId));
      removed = beforeIds.filter((userId) => !memberIds.includes(userId));
    }
    const updated = await findChat(tx, ctx, current.id);
    return { chat: await detail(tx, ctx, updated!), addedIds: added, removedIds: removed };
  });
  deps.events.emit('chat.saved', { companyId: ctx.companyId, chat, addedIds, removedIds });
  return chat;
}

export async function deleteChat(deps: ChatsDeps, ctx: RequestContext, ref: ChatRef): Promise<void> {
  const { chatId, memberIds } = await deps.db.transaction(async (tx) => {
    const chat = await ownedChat(tx, ctx, ref);
    const members = (await listMembers(tx, ctx, [chat.id])).get(chat.id) ?? [];
    await deleteChatRow(tx, ctx, chat.id);
    return { chatId: chat.id, memberIds: members.map((member) => member.userId) };
  });
  deps.events.emit('chat.deleted', { companyId: ctx.companyId, chatId, memberIds });
}

/** A member other than the owner leaves (the owner deletes the chat instead). */
export async function leaveChat(deps: ChatsDeps, ctx: RequestContext, ref: ChatRef): Promise<void> {
  const chat = await deps.db.transaction(async (tx) => {
    const current = await memberChat(tx, ctx, ref, true);
    if (current.ownerId === ctx.user.id) throw new AppError('ERR_CHAT_OWNER_CANNOT_LEAVE');
    const remaining = ((await listMembers(tx, ctx, [current.id])).get(current.id) ?? []).map((member) => member.userId).filter((userId) => userId !== ctx.user.id);
    await replaceMembers(tx, ctx, current.id, remaining);
    return detail(tx, ctx, current);
  });
  deps.events.emit('chat.saved', { companyId: ctx.companyId, chat, addedIds: [], removedIds: [ctx.user.id] });
}

export async function readChat(deps: ChatsDeps, ctx: RequestContext, ref: ChatRef): Promise<ChatDetail> {
  const current = await memberChat(deps.db, ctx, ref);
  await clearUnreads(deps.db, ctx, current.id, ctx.user.id);
  const chat = await detail(deps.db, ctx, current);
  deps.events.emit('chat.read', { companyId: ctx.companyId, chat, userId: ctx.user.id });
  return chat;
}

export async function chatMessagesPage(deps: Pick<Platform, 'db'>, ctx: RequestContext, ref: ChatRef, pageNumber: number) {
  const chat = await memberChat(deps.db, ctx, ref);
  return listChatMessages(deps.db, ctx, chat.id, pageNumber);
}

/**
 * Stored before it is broadcast: the row, the chat's preview and the others' unread
 * counts commit together under the chat's row lock (which member changes also take),
 * then the members of that moment hear it.
 */
export async function sendChatMessage(deps: ChatsDeps, ctx: RequestContext, ref: ChatRef, body: ChatMessageBody): Promise<{ message: ChatMessageDetail; chat: ChatDetail }> {
  const result = await deps.db.transaction(async (tx) => {
    const current = await memberChat(tx, ctx, ref, true);
    const row = await insertChatMessage(tx, ctx, current.id, ctx.user.id, body.message);
    const updated = await findChat(tx, ctx, current.id);
    return { message: { ...row, senderName: ctx.user.name }, chat: await detail(tx, ctx, updated!) };
  });
  deps.events.emit('chat.message', { companyId: ctx.companyId, ...result });
  return result;
}
