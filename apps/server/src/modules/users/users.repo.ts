import { PAGE_SIZE, settingVisibility } from '@atende/shared';
import { asc, count, eq, ilike, inArray, or, sql } from 'drizzle-orm';
import { likeContains } from '../../platform/db/search.js';
import type { DbOrTx } from '../../platform/db/client.js';
import { companies, plans, queues, settings, userQueues, users, whatsapps } from '../../platform/db/schema.js';
import type { RequestContext, TenantScope } from '../../platform/http/context.js';
import type { UserDetail } from './users.presenter.js';
import { inTenant } from '../../platform/db/tenant.js';

const userColumns = {
  id: users.id,
  companyId: users.companyId,
  name: users.name,
  email: users.email,
  profile: users.profile,
  super: users.super,
  allTicket: users.allTicket,
  language: users.language,
  online: users.online,
  whatsappId: users.whatsappId,
  maxOpenTickets: users.maxOpenTickets,
  whatsappName: whatsapps.name,
  createdAt: users.createdAt,
  updatedAt: users.updatedAt,
};


function selectUsers(db: DbOrTx) {
  return db.select(userColumns).from(users).leftJoin(whatsapps, eq(whatsapps.id, users.whatsappId));
}

type UserBaseRow = Awaited<ReturnType<typeof selectUsers>>[number];

async function queuesByUser(db: DbOrTx, scope: TenantScope, userIds: number[]) {
  const byUser = new Map<number, { id: number; name: string; color: string }[]>();
  if (userIds.length === 0) return byUser;
  const rows = await db
    .select({ userId: userQueues.userId, id: queues.id, name: queues.name, color: queues.color })
    .from(userQueues)
    .innerJoin(queues, eq(queues.id, userQueues.queueId))
    .where(inTenant(userQueues, scope, inArray(userQueues.userId, userIds)))
    .orderBy(asc(queues.orderQueue), asc(queues.name));
  for (const { userId, ...queue } of rows) {
    const list = byUser.get(userId) ?? [];
    list.push(queue);
    byUser.set(userId, list);
  }
  return byUser;
}

function toDetail(row: UserBaseRow, userQueueList: UserDetail['queues']): UserDetail {
  const { whatsappName, ...rest } = row;
  return {
    ...rest,
    whatsapp: row.whatsappId !== null && whatsappName !== null ? { id: row.whatsappId, name: whatsappName } : null,
    queues: userQueueList,
  };
}


export async function findUser(db: DbOrTx, scope: TenantScope, userId: number): Promise<UserDetail | null> {
  const [row] = await selectUsers(db)
    .where(inTenant(users, scope, eq(users.id, userId)))
    .limit(1);
  if (!row) return null;
  const userQueueList = (await queuesByUser(db, scope, [row.id])).get(row.id) ?? [];
  return toDetail(row, userQueueList);
}

/** The user with company, plan and settings: the shape login and /auth/me answer. */
export async function loadUserDetail(db: DbOrTx, scope: TenantScope, userId: number): Promise<UserDetail | null> {
  const user = await findUser(db, scope, userId);
  if (!user) return null;
  const [company] = await db
    .select({ company: companies, plan: plans })
    .from(companies)
    .innerJoin(plans, eq(plans.id, companies.planId))
    .where(eq(companies.id, scope.companyId))
    .limit(1);
  if (!company) return null;
  // The session answer carries the public settings only (the UI toggles); admins read the rest from /settings.
  const companySettings = (
    await db
      .select({ key: settings.key, value: settings.value })
      .from(settings)
      .where(inTenant(settings, scope))
      .orderBy(asc(settings.key))
  ).filter((setting) => settingVisibility(setting.key) === 'public');
  const { plan } = company;
  return {
    ...user,
    company: {
      id: company.company.id,
      name: company.company.name,
      dueDate: company.company.dueDate,
      status: company.company.status,
      timezone: company.company.timezone,
      settings: companySettings,
      plan: {
        id: plan.id,
        name: plan.name,
        users: plan.users,
        connections: plan.connections,
        queues: plan.queues,
        valueCents: plan.valueCents,
        useCampaigns: plan.useCampaigns,
        useKanban: plan.useKanban,
        useOpenAi: plan.useOpenAi,
        useIntegrations: plan.useIntegrations,
        useSchedules: plan.useSchedules,
        useInternalChat: plan.useInternalChat,
        useExternalApi: plan.useExternalApi,
      },
    },
  };
}


export async function listUsers(db: DbOrTx, scope: TenantScope, query: { searchParam: string; pageNumber: number }) {
  const term = query.searchParam.trim().toLowerCase();
  const where = inTenant(users, scope, term ? or(ilike(users.name, likeContains(term)), ilike(users.email, likeContains(term))) : undefined);
  const offset = (query.pageNumber - 1) * PAGE_SIZE;
  const [rows, [total]] = await Promise.all([
    selectUsers(db).where(where).orderBy(asc(users.name), asc(users.id)).limit(PAGE_SIZE).offset(offset),
    db.select({ value: count() }).from(users).where(where),
  ]);
  const queueMap = await queuesByUser(
    db,
    scope,
    rows.map((r) => r.id),
  );
  const totalCount = total?.value ?? 0;
  return {
    users: rows.map((row) => toDetail(row, queueMap.get(row.id) ?? [])),
    count: totalCount,
    hasMore: offset + rows.length < totalCount,
  };
}

export async function listAllUsers(db: DbOrTx, scope: TenantScope) {
  const rows = await selectUsers(db).where(inTenant(users, scope)).orderBy(asc(users.name));
  const queueMap = await queuesByUser(
    db,
    scope,
    rows.map((r) => r.id),
  );
  return rows.map((row) => toDetail(row, queueMap.get(row.id) ?? []));
}

export async function countUsers(db: DbOrTx, scope: TenantScope): Promise<number> {
  const [row] = await db.select({ value: count() }).from(users).where(inTenant(users, scope));
  return row?.value ?? 0;
}

/** Locks the company's row for the rest of the transaction (as lockCompanyAdmins does), then counts its users. */
export async function countUsersLocked(tx: DbOrTx, scope: TenantScope): Promise<number> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, scope.companyId)).for('update');
  return countUsers(tx, scope);
}

/**
 * Locks the company's row for the rest of the transaction and answers its admins'
 * ids: two requests demoting or deleting admins of one company run one after the
 * other, so they cannot both see "another admin is left" and leave none.
 */
export async function lockCompanyAdmins(tx: DbOrTx, scope: TenantScope): Promise<number[]> {
  await tx.select({ id: companies.id }).from(companies).where(eq(companies.id, scope.companyId)).for('update');
  const rows = await tx
    .select({ id: users.id })
    .from(users)
    .where(inTenant(users, scope, eq(users.profile, 'admin')));
  return rows.map((row) => row.id);
}

export async function emailTaken(db: DbOrTx, email: string, exceptUserId?: number): Promise<boolean> {
  return (await emailOwner(db, email, exceptUserId)) !== null;
}

/** The company of the user (other than `exceptUserId`) that has this email, or null: emails are unique across companies. */
export async function emailOwner(db: DbOrTx, email: string, exceptUserId?: number): Promise<{ companyId: number } | null> {
  const [row] = await db.select({ id: users.id, companyId: users.companyId }).from(users).where(eq(users.email, email)).limit(1);
  return row !== undefined && row.id !== exceptUserId ? { companyId: row.companyId } : null;
}

export async function replaceUserQueues(db: DbOrTx, scope: TenantScope, userId: number, queueIds: number[]): Promise<void> {
  await db.delete(userQueues).where(inTenant(userQueues, scope, eq(userQueues.userId, userId)));
  if (queueIds.length > 0) {
    await db.insert(userQueues).values(queueIds.map((queueId) => ({ companyId: scope.companyId, userId, queueId })));
  }
}

/** The connection a user works on by default (its new tickets go there), or null. */
export async function findUserConnectionId(db: DbOrTx, scope: TenantScope, userId: number): Promise<number | null> {
  const [row] = await db
    .select({ whatsappId: users.whatsappId })
    .from(users)
    .where(inTenant(users, scope, eq(users.id, userId)));
  return row?.whatsappId ?? null;
}

export type UserValues = Omit<typeof users.$inferInsert, 'id' | 'companyId' | 'createdAt' | 'updatedAt'>;

export async function insertUser(db: DbOrTx, scope: TenantScope, values: UserValues): Promise<number | null> {
  const [created] = await db
    .insert(users)
    .values({ ...values, companyId: scope.companyId })
    .returning({ id: users.id });
  return created?.id ?? null;
}

/** `bumpTokenVersion`: the user's access tokens stop working at once (someone else changed its password). */
export async function updateUserRow(db: DbOrTx, scope: TenantScope, userId: number, values: Partial<UserValues>, options: { bumpTokenVersion?: boolean } = {}): Promise<void> {
  await db
    .update(users)
    .set({ ...values, ...(options.bumpTokenVersion ? { tokenVersion: sql`${users.tokenVersion} + 1` } : {}), updatedAt: new Date() })
    .where(inTenant(users, scope, eq(users.id, userId)));
}

/** Answers whether the user was there to delete. */
export async function deleteUserRow(db: DbOrTx, scope: TenantScope, userId: number): Promise<boolean> {
  const deleted = await db
    .delete(users)
    .where(inTenant(users, scope, eq(users.id, userId)))
    .returning({ id: users.id });
  return deleted.length > 0;
}

/** Answers whether the user was offline until now (its presence changed). */
export async function markUserOnline(db: DbOrTx, ctx: RequestContext): Promise<boolean> {
  const [before] = await db
    .select({ online: users.online })
    .from(users)
    .where(inTenant(users, ctx, eq(users.id, ctx.user.id)));
  await db
    .update(users)
    .set({ online: true, lastSeenAt: sql`now()` })
    .where(inTenant(users, ctx, eq(users.id, ctx.user.id)));
  return before !== undefined && !before.online;
}

/** Answers whether the user was online until now (its presence changed). */
export async function markUserOffline(db: DbOrTx, ctx: RequestContext): Promise<boolean> {
  const changed = await db
    .update(users)
    .set({ online: false })
    .where(inTenant(users, ctx, eq(users.id, ctx.user.id), eq(users.online, true)))
    .returning({ id: users.id });
  return changed.length > 0;
}
