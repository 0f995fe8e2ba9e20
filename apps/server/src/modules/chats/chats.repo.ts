import { PAGE_SIZE } from '@atende/shared';
import { asc, desc, eq, exists, gt, inArray, ne, notInArray, sql } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { likeContains } from '../../platform/db/search.js';
import { chatMessages, chats, chatUsers, users, type ChatMessageRow, type ChatRow } from '../../platform/db/schema.js';
import type { TenantScope } from '../../platform/http/context.js';
import { inTenant } from '../../platform/db/tenant.js';

export interface ChatMember {
  userId: number;
  unreads: number;
  name: string;
}
export interface ChatDetail extends ChatRow {
  members: ChatMember[];
}
export interface ChatMessageDetail extends ChatMessageRow {
  senderName: string | null;
}

const memberOf = (userId: number) =>
  exists(
    sql`(select 1 from ${chatUsers} where ${chatUsers.chatId} = ${chats.id} and ${chatUsers.userId} = ${userId})`,
  );

/** The chat named by its id or its uuid, inside the tenant. `forUpdate` locks its row (members and messages change under it). */
export async function findChat(db: DbOrTx, scope: TenantScope, ref: number | string, forUpdate = false): Promise<ChatRow | null> {
  const query = db
    .select()
    .from(chats)
    .where(inTenant(chats, scope, typeof ref === 'number' ? eq(chats.id, ref) : eq(chats.uuid, ref)))
    .limit(1);
  const [row] = forUpdate ? await query.for('update') : await query;
  return row ?? null;
}

export async function listMembers(db: DbOrTx, scope: TenantScope, chatIds: readonly number[]): Promise<Map<number, ChatMember[]>> {
  const byChat = new Map<number, ChatMember[]>();
  if (chatIds.length === 0) return byChat;
  const rows = await db
    .select({ chatId: chatUsers.chatId, userId: chatUsers.userId, unreads: chatUsers.unreads, name: users.name })
    .from(chatUsers)
    .innerJoin(users, eq(users.id, chatUsers.userId))
    .where(inTenant(chatUsers, scope, inArray(chatUsers.chatId, [...chatIds])))
    .orderBy(asc(users.name), asc(users.id));
  for (const row of rows) {
    const list = byChat.get(row.chatId) ?? [];
    list.push({ userId: row.userId, unreads: row.unreads, name: row.name });
    byChat.set(row.chatId, list);
  }
  return byChat;
}

export async function withMembers(db: DbOrTx, scope: TenantScope, rows: ChatRow[]): Promise<ChatDetail[]> {
  const members = await listMembers(db, scope, rows.map((row) => row.id));
  return rows.map((row) => ({ ...row, members: members.get(row.id) ?? [] }));
}

/** The caller's chats, most recently active first, 20 a page; search over the title. */
export async function listChatPage(db: DbOrTx, scope: TenantScope, userId: number, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim().toLowerCase();
  const rows = await db
    .select()
    .from(chats)
    .where(inTenant(chats, scope, memberOf(userId), term ? sql`lower(${chats.title}) like ${likeContains(term)}` : undefined))
    .orderBy(desc(chats.updatedAt), desc(chats.id))
    .limit(PAGE_SIZE + 1)
    .offset((query.pageNumber - 1) * PAGE_SIZE);
  return { records: await withMembers(db, scope, rows.slice(0, PAGE_SIZE)), hasMore: rows.length > PAGE_SIZE };
}

/** How many of the caller's chats have messages it has not read. */
export async function countUnreadChats(db: DbOrTx, scope: TenantScope, userId: number): Promise<number> {
  const [row] = await db
    .select({ value: sql<number>`count(*)::int` })
    .from(chatUsers)
    .where(inTenant(chatUsers, scope, eq(chatUsers.userId, userId), gt(chatUsers.unreads, 0)));
  return row?.value ?? 0;
}

export async function isMember(db: DbOrTx, scope: TenantScope, chatId: number, userId: number): Promise<boolean> {
  const [row] = await db
    .select({ userId: chatUsers.userId })
    .from(chatUsers)
    .where(inTenant(chatUsers, scope, eq(chatUsers.chatId, chatId), eq(chatUsers.userId, userId)))
    .limit(1);
  return row !== undefined;
}

export async function insertChat(tx: DbOrTx, scope: TenantScope, chat: { title: string; ownerId: number }): Promise<ChatRow> {
  const [row] = await tx.insert(chats).values({ companyId: scope.companyId, title: chat.title, ownerId: chat.ownerId }).returning();
  if (!row) throw new Error('chat not inserted');
  return row;
}

export async function renameChat(tx: DbOrTx, scope: TenantScope, chatId: number, title: string): Promise<void> {
  await tx.update(chats).set({ title, updatedAt: new Date() }).where(inTenant(chats, scope, eq(chats.id, chatId)));
}

export async function deleteChatRow(tx: DbOrTx, scope: TenantScope, chatId: number): Promise<void> {
  await tx.delete(chats).where(inTenant(chats, scope, eq(chats.id, chatId)));
}

/** Sets the members to exactly `userIds`; those who stay keep their unread count. */
export async function replaceMembers(tx: DbOrTx, scope: TenantScope, chatId: number, userIds: readonly number[]): Promise<void> {
  const wanted = [...new Set(userIds)];
  await tx
    .delete(chatUsers)
    .where(inTenant(chatUsers, scope, eq(chatUsers.chatId, chatId), notInArray(chatUsers.userId, wanted)));
  await tx
    .insert(chatUsers)
    .values(wanted.map((userId) => ({ companyId: scope.companyId, chatId, userId })))
    .onConflictDoNothing();
}

/** One page of a chat's messages: newest page first, each page oldest first (server time, then id). */
export async function listChatMessages(db: DbOrTx, scope: TenantScope, chatId: number, pageNumber: number) {
  const rows = await db
    .select({ message: chatMessages, senderName: users.name })
    .from(chatMessages)
    .leftJoin(users, eq(users.id, chatMessages.senderId))
    .where(inTenant(chatMessages, scope, eq(chatMessages.chatId, chatId)))
    .orderBy(desc(chatMessages.createdAt), desc(chatMessages.id))
    .limit(PAGE_SIZE + 1)
    .offset((pageNumber - 1) * PAGE_SIZE);
  const page = rows.slice(0, PAGE_SIZE).reverse();
  return { records: page.map((row): ChatMessageDetail => ({ ...row.message, senderName: row.senderName })), hasMore: rows.length > PAGE_SIZE };
}

/** Stores a message, moves the chat's preview and time, and counts it unread for every member but the sender. */
export async function insertChatMessage(tx: DbOrTx, scope: TenantScope, chatId: number, senderId: number, message: string): Promise<ChatMessageRow> {
  // The clock at the insert, under the chat's lock (not the transaction's start): server time orders messages as they were stored.
  const [row] = await tx.insert(chatMessages).values({ companyId: scope.companyId, chatId, senderId, message, createdAt: sql`clock_timestamp()` }).returning();
  if (!row) throw new Error('chat message not inserted');
  await tx.update(chats).set({ lastMessage: message, updatedAt: row.createdAt }).where(inTenant(chats, scope, eq(chats.id, chatId)));
  await tx
    .update(chatUsers)
    .set({ unreads: sql`${chatUsers.unreads} + 1` })
    .where(inTenant(chatUsers, scope, eq(chatUsers.chatId, chatId), ne(chatUsers.userId, senderId)));
  return row;
}

export async function clearUnreads(db: DbOrTx, scope: TenantScope, chatId: number, userId: number): Promise<void> {
  await db
    .update(chatUsers)
    .set({ unreads: 0 })
    .where(inTenant(chatUsers, scope, eq(chatUsers.chatId, chatId), eq(chatUsers.userId, userId)));
}
