import type { PushKind, PushSettings } from '@atende/shared';
import { and, count, eq, exists, inArray, notInArray, or, sql, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '../../platform/db/client.js';
import { chatMessages, chats, chatUsers, pushSubscriptions, userQueues, users, type PushSubscriptionRow } from '../../platform/db/schema.js';
import { inTenant, sameTenant } from '../../platform/db/tenant.js';
import type { TenantScope } from '../../platform/http/context.js';

const KIND_COLUMN = {
  newTickets: users.pushNewTickets,
  ticketMessages: users.pushTicketMessages,
  chatMessages: users.pushChatMessages,
} as const satisfies Record<PushKind, unknown>;

/**
 * Adds the browser's subscription for the user, or refreshes its keys and language when
 * the user had it already. Answers null when the endpoint is another user's (the unique
 * index settles a race the same way).
 */
export async function saveSubscription(
  db: DbOrTx,
  scope: TenantScope,
  userId: number,
  subscription: { endpoint: string; p256dh: string; auth: string; language: string | null },
): Promise<PushSubscriptionRow | null> {
  const [row] = await db
    .insert(pushSubscriptions)
    .values({ companyId: scope.companyId, userId, ...subscription })
    .onConflictDoUpdate({
      target: pushSubscriptions.endpoint,
      set: { p256dh: subscription.p256dh, auth: subscription.auth, language: subscription.language, updatedAt: sql`now()` },
      // Only the row of this very user is refreshed; another user's stays as it is.
      setWhere: inTenant(pushSubscriptions, scope, eq(pushSubscriptions.userId, userId)),
    })
    .returning();
  return row ?? null;
}

/** Deletes the user's own subscription with this endpoint; answers whether there was one. */
export async function deleteOwnSubscription(db: DbOrTx, scope: TenantScope, userId: number, endpoint: string): Promise<boolean> {
  const rows = await db
    .delete(pushSubscriptions)
    .where(inTenant(pushSubscriptions, scope, eq(pushSubscriptions.userId, userId), eq(pushSubscriptions.endpoint, endpoint)))
    .returning({ id: pushSubscriptions.id });
  return rows.length > 0;
}

/** A subscription the push service says is gone (404, 410) or whose address is refused. */
export async function deleteSubscriptionById(db: DbOrTx, scope: TenantScope, id: number): Promise<void> {
  await db.delete(pushSubscriptions).where(inTenant(pushSubscriptions, scope, eq(pushSubscriptions.id, id)));
}

export async function loadPushSettings(db: DbOrTx, scope: TenantScope, userId: number): Promise<PushSettings | null> {
  const [row] = await db
    .select({ newTickets: users.pushNewTickets, ticketMessages: users.pushTicketMessages, chatMessages: users.pushChatMessages })
    .from(users)
    .where(inTenant(users, scope, eq(users.id, userId)));
  if (!row) return null;
  const [devices] = await db.select({ count: count() }).from(pushSubscriptions).where(inTenant(pushSubscriptions, scope, eq(pushSubscriptions.userId, userId)));
  return { ...row, devices: Number(devices?.count ?? 0) };
}

export async function updatePushSettings(db: DbOrTx, scope: TenantScope, userId: number, change: Partial<Record<PushKind, boolean>>): Promise<void> {
  const set: Partial<Record<'pushNewTickets' | 'pushTicketMessages' | 'pushChatMessages', boolean>> = {};
  if (change.newTickets !== undefined) set.pushNewTickets = change.newTickets;
  if (change.ticketMessages !== undefined) set.pushTicketMessages = change.ticketMessages;
  if (change.chatMessages !== undefined) set.pushChatMessages = change.chatMessages;
  if (Object.keys(set).length === 0) return;
  await db.update(users).set(set).where(inTenant(users, scope, eq(users.id, userId)));
}

/** Whether anyone of the company has a subscribed browser (skips the job for companies that never subscribed). */
export async function companyHasSubscriptions(db: DbOrTx, scope: TenantScope): Promise<boolean> {
  const [row] = await db.select({ id: pushSubscriptions.id }).from(pushSubscriptions).where(inTenant(pushSubscriptions, scope)).limit(1);
  return row !== undefined;
}

export interface PushRecipient {
  id: number;
  userId: number;
  endpoint: string;
  p256dh: string;
  auth: string;
  /** The user's own language, else the subscribing page's. */
  language: string | null;
}

/** Who is told, as a condition on `users`. */
export type Audience =
  | { users: number[] }
  /** The users who see a waiting ticket of this queue in their lists (null: a ticket without a queue). */
  | { waitingInQueue: number | null };

function audienceCondition(scope: TenantScope, audience: Audience): SQL | undefined {
  if ('users' in audience) return audience.users.length > 0 ? inArray(users.id, audience.users) : sql`false`;
  if (audience.waitingInQueue === null) return undefined;
  const inQueue = exists(
    sql`(select 1 from ${userQueues} where ${userQueues.companyId} = ${scope.companyId} and ${userQueues.userId} = ${users.id} and ${userQueues.queueId} = ${audience.waitingInQueue})`,
  );
  return or(eq(users.profile, 'admin'), eq(users.allTicket, 'enabled'), inQueue);
}

/** The subscriptions of the audience's users who want this kind, less `except` (who caused it). */
export async function listRecipients(db: DbOrTx, scope: TenantScope, kind: PushKind, audience: Audience, except: number[]): Promise<PushRecipient[]> {
  return db
    .select({
      id: pushSubscriptions.id,
      userId: pushSubscriptions.userId,
      endpoint: pushSubscriptions.endpoint,
      p256dh: pushSubscriptions.p256dh,
      auth: pushSubscriptions.auth,
      language: sql<string | null>`coalesce(${users.language}, ${pushSubscriptions.language})`,
    })
    .from(pushSubscriptions)
    .innerJoin(users, and(eq(users.id, pushSubscriptions.userId), sameTenant(users, pushSubscriptions)))
    .where(
      inTenant(
        pushSubscriptions,
        scope,
        eq(KIND_COLUMN[kind], true),
        audienceCondition(scope, audience),
        except.length > 0 ? notInArray(users.id, except) : undefined,
      ),
    )
    .orderBy(pushSubscriptions.id);
}

/** A chat message as a push tells of it: the chat, the sender, the text, and the other members. */
export async function findChatMessageForPush(
  db: DbOrTx,
  scope: TenantScope,
  messageId: number,
): Promise<{ chatUuid: string; chatTitle: string; senderId: number | null; senderName: string; message: string; memberIds: number[] } | null> {
  const [row] = await db
    .select({
      chatId: chats.id,
      chatUuid: chats.uuid,
      chatTitle: chats.title,
      senderId: chatMessages.senderId,
      senderName: sql<string>`coalesce(${users.name}, '')`,
      message: chatMessages.message,
    })
    .from(chatMessages)
    .innerJoin(chats, and(eq(chats.id, chatMessages.chatId), sameTenant(chats, chatMessages)))
    .leftJoin(users, and(eq(users.id, chatMessages.senderId), sameTenant(users, chatMessages)))
    .where(inTenant(chatMessages, scope, eq(chatMessages.id, messageId)));
  if (!row) return null;
  const members = await db.select({ userId: chatUsers.userId }).from(chatUsers).where(inTenant(chatUsers, scope, eq(chatUsers.chatId, row.chatId)));
  return { chatUuid: row.chatUuid, chatTitle: row.chatTitle, senderId: row.senderId, senderName: row.senderName, message: row.message, memberIds: members.map((m) => m.userId) };
}
