import type { UserCreateBody, UserUpdateBody } from '@atende/shared';
import { can, validationText } from '@atende/shared';
import { changedFields, recordAudit, recordedFields } from '../../platform/audit/audit-log.js';
import { queues, whatsapps } from '../../platform/db/schema.js';
import { assertIdsInTenant } from '../../platform/db/tenant.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { hashPassword } from '../auth/auth.service.js';
import { revokeUserTokens } from '../auth/refresh-tokens.repo.js';
import { findSetting } from '../settings/settings.repo.js';
import type { UserDetail } from './users.presenter.js';
import { deleteRefusal, lastAdminRefusal, updateRefusal } from './users.policy.js';
import {
  countUsers,
  countUsersLocked,
  deleteUserRow,
  emailOwner,
  findUser,
  insertUser,
  listAllUsers,
  listUsers,
  lockCompanyAdmins,
  markUserOffline,
  markUserOnline,
  replaceUserQueues,
  updateUserRow,
} from './users.repo.js';

/** The users module's ports: the database, the domain events, and `access` (a change of rights reaches sessions and sockets at once). */
export type UsersDeps = Pick<Platform, 'db' | 'events' | 'access'>;

/** The users page: 20 a page, searched by name or email. */
export async function listCompanyUsers(deps: UsersDeps, ctx: RequestContext, query: { searchParam: string; pageNumber: number }) {
  return listUsers(deps.db, ctx, query);
}

/** Every user of the company (pickers): a user only ever lists its own company. */
export async function listUserOptions(deps: UsersDeps, ctx: RequestContext): Promise<UserDetail[]> {
  return listAllUsers(deps.db, ctx);
}

export async function showUser(deps: UsersDeps, ctx: RequestContext, id: number): Promise<UserDetail> {
  const user = await findUser(deps.db, ctx, id);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  return user;
}

async function userCreationEnabled(deps: UsersDeps, ctx: RequestContext): Promise<boolean> {
  return (await findSetting(deps.db, ctx, 'userCreation'))?.value !== 'disabled';
}

/**
 * Emails are unique across companies (login is by email), but an email of another
 * company must not be confirmed to a tenant's admin: it gets exactly the answer of
 * a malformed email. A duplicate inside one's own company keeps the spec's 409.
 * Both cases cost the same single lookup.
 */
async function assertEmailFree(deps: UsersDeps, ctx: RequestContext, email: string, exceptUserId?: number): Promise<void> {
  const owner = await emailOwner(deps.db, email, exceptUserId);
  if (!owner) return;
  if (owner.companyId === ctx.companyId) throw new AppError('ERR_EMAIL_ALREADY_EXISTS');
  throw new AppError('ERR_VALIDATION', undefined, { message: 'Invalid body', fields: { email: [validationText('validation.invalidEmail')] } });
}

/**
 * Two requests saving one email at once both pass the check; the unique index
 * refuses the second, which then gets the answer the check would have given.
 */
async function settleEmailRace<T>(deps: UsersDeps, ctx: RequestContext, email: string | undefined, exceptUserId: number | undefined, save: () => Promise<T>): Promise<T> {
  try {
    return await save();
  } catch (error) {
    const pgError = [error, (error as { cause?: unknown }).cause].find((e) => (e as { code?: string } | undefined)?.code === '23505') as { constraint?: string } | undefined;
    if (email && pgError && (pgError.constraint === undefined || pgError.constraint === 'users_email_uq')) await assertEmailFree(deps, ctx, email, exceptUserId);
    throw error;
  }
}

async function assertReferences(deps: UsersDeps, ctx: RequestContext, body: { queueIds?: number[]; whatsappId?: number | null }) {
  if (body.queueIds) await assertIdsInTenant(deps.db, ctx, queues, body.queueIds, 'ERR_NO_QUEUE_FOUND');
  if (body.whatsappId != null) await assertIdsInTenant(deps.db, ctx, whatsapps, [body.whatsappId], 'ERR_NO_WAPP_FOUND');
}

export async function createUser(deps: UsersDeps, ctx: RequestContext, body: UserCreateBody): Promise<UserDetail> {
  requireAdmin(ctx);
  if (body.super && !ctx.user.super) throw new AppError('ERR_NO_PERMISSION');
  if (!ctx.user.super && !(await userCreationEnabled(deps, ctx))) throw new AppError('ERR_USER_CREATION_DISABLED');
  // Plan limits: 0 means "no limit" (a new plan defaults to 0 and must not lock its company out).
  const limit = ctx.company.plan.users;
  // Checked first to refuse cheaply, and again under the company lock below.
  if (limit > 0 && (await countUsers(deps.db, ctx)) >= limit) throw new AppError('ERR_USER_LIMIT_REACHED');
  await assertEmailFree(deps, ctx, body.email);
  await assertReferences(deps, ctx, body);

  const passwordHash = await hashPassword(body.password);
  const userId = await settleEmailRace(deps, ctx, body.email, undefined, () => deps.db.transaction(async (tx) => {
    // Two admins adding the last free seat at once: the second one counts after the first one's insert.
    if (limit > 0 && (await countUsersLocked(tx, ctx)) >= limit) throw new AppError('ERR_USER_LIMIT_REACHED');
    const created = await insertUser(tx, ctx, {
      name: body.name,
      email: body.email,
      passwordHash,
      profile: body.profile,
      allTicket: body.allTicket,
      super: body.super ?? false,
      // Null: no choice of their own, so they follow the company's language (DECISIONS §1, web/api/session.tsx).
      language: body.language ?? null,
      whatsappId: body.whatsappId ?? null,
      maxOpenTickets: body.maxOpenTickets ?? null,
    });
    if (created === null) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
    await replaceUserQueues(tx, ctx, created, body.queueIds);
    await recordAudit(tx, ctx, {
      action: 'user.created',
      entityId: created,
      changes: { ...recordedFields(body, ['name', 'email', 'profile', 'allTicket']), super: body.super ?? false, queueIds: body.queueIds ?? [] },
    });
    return created;
  }));
  const user = await findUser(deps.db, ctx, userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  deps.events.emit('user.saved', { companyId: ctx.companyId, action: 'create', user });
  return user;
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  const left = [...new Set(a)].sort((x, y) => x - y);
  const right = [...new Set(b)].sort((x, y) => x - y);
  return left.length === right.length && left.every((v, i) => v === right[i]);
}

/**
 * Anyone may edit their own name, email, password and language; changing a
 * profile needs user-modal:editProfile, queues user-modal:editQueues, and other
 * users' records need admin. A field resent unchanged is not a change.
 */
function assertMayUpdate(ctx: RequestContext, target: UserDetail, body: UserUpdateBody): void {
  const self = ctx.user.id === target.id;
  if (!self) requireAdmin(ctx);
  if (body.profile !== undefined && body.profile !== target.profile && !can(ctx.user, 'user-modal:editProfile')) {
    throw new AppError('ERR_NO_PERMISSION');
  }
  if (body.queueIds !== undefined && !sameIds(body.queueIds, target.queues.map((q) => q.id)) && !can(ctx.user, 'user-modal:editQueues')) {
    throw new AppError('ERR_NO_PERMISSION');
  }
  const adminOnly =
    (body.allTicket !== undefined && body.allTicket !== target.allTicket) ||
    (body.whatsappId !== undefined && body.whatsappId !== target.whatsappId) ||
    (body.maxOpenTickets !== undefined && body.maxOpenTickets !== target.maxOpenTickets);
  if (adminOnly) requireAdmin(ctx);
  if (body.super !== undefined && body.super !== target.super && !ctx.user.super) throw new AppError('ERR_NO_PERMISSION');
  const refusal = updateRefusal(ctx.user, target, body);
  if (refusal) throw new AppError(refusal);
}

/** What an edit changes, for the audit log: the rights and identity fields, the password only as changed. */
function userChanges(target: UserDetail, body: UserUpdateBody) {
  const queueIds = (ids: readonly number[]) => [...new Set(ids)].sort((a, b) => a - b);
  const before = {
    name: target.name,
    email: target.email,
    profile: target.profile,
    allTicket: target.allTicket,
    whatsappId: target.whatsappId,
    super: target.super,
    queueIds: queueIds(target.queues.map((q) => q.id)),
    password: false,
  };
  const after = {
    name: body.name ?? before.name,
    email: body.email ?? before.email,
    profile: body.profile ?? before.profile,
    allTicket: body.allTicket ?? before.allTicket,
    whatsappId: body.whatsappId === undefined ? before.whatsappId : body.whatsappId,
    super: body.super ?? before.super,
    queueIds: body.queueIds ? queueIds(body.queueIds) : before.queueIds,
    password: Boolean(body.password),
  };
  return changedFields(before, after, ['name', 'email', 'profile', 'allTicket', 'whatsappId', 'super', 'queueIds', 'password'], ['password']);
}

export async function updateUser(
  deps: UsersDeps,
  ctx: RequestContext,
  userId: number,
  body: UserUpdateBody,
  currentFamilyId: string | undefined,
): Promise<UserDetail> {
  const target = await findUser(deps.db, ctx, userId);
  if (!target) throw new AppError('ERR_NO_USER_FOUND');
  assertMayUpdate(ctx, target, body);
  if (body.email && body.email !== target.email) await assertEmailFree(deps, ctx, body.email, userId);
  await assertReferences(deps, ctx, body);

  const passwordHash = body.password ? await hashPassword(body.password) : undefined;
  const self = ctx.user.id === userId;
  const revokedFamilies = await settleEmailRace(deps, ctx, body.email, userId, () => deps.db.transaction(async (tx) => {
    if (body.profile === 'user') {
      const refusal = lastAdminRefusal(await lockCompanyAdmins(tx, ctx), userId, body);
      if (refusal) throw new AppError(refusal);
    }
    await updateUserRow(
      tx,
      ctx,
      userId,
      {
        name: body.name,
        email: body.email,
        profile: body.profile,
        allTicket: body.allTicket,
        whatsappId: body.whatsappId,
        super: body.super,
        language: body.language,
        maxOpenTickets: body.maxOpenTickets,
        ...(passwordHash ? { passwordHash } : {}),
      },
      // Someone else changed this password: every session of the user ends now.
      { bumpTokenVersion: passwordHash !== undefined && !self },
    );
    if (body.queueIds) await replaceUserQueues(tx, ctx, userId, body.queueIds);
    await recordAudit(tx, ctx, { action: 'user.updated', entityId: userId, changes: userChanges(target, body) });
    // A password change ends the user's other sessions; one's own current session stays.
    return passwordHash ? revokeUserTokens(tx, ctx, userId, self ? currentFamilyId : undefined) : [];
  }));
  // Profile, queues, allTicket or token version may have changed, and sign-ins may have
  // ended (a password change): the user's sessions and sockets follow at once, on every node.
  await deps.access.changed({ companyId: ctx.companyId, userIds: [userId], endedFamilies: revokedFamilies });
  const user = await findUser(deps.db, ctx, userId);
  if (!user) throw new AppError('ERR_NO_USER_FOUND');
  deps.events.emit('user.saved', { companyId: ctx.companyId, action: 'update', user });
  return user;
}

export async function deleteUser(deps: UsersDeps, ctx: RequestContext, userId: number): Promise<void> {
  requireAdmin(ctx);
  if (userId === ctx.user.id) throw new AppError('ERR_CANNOT_DELETE_SELF');
  const target = await findUser(deps.db, ctx, userId);
  if (!target) throw new AppError('ERR_NO_USER_FOUND');
  const refusal = deleteRefusal(ctx.user, target);
  if (refusal) throw new AppError(refusal);
  const deleted = await deps.db.transaction(async (tx) => {
    const lastAdmin = lastAdminRefusal(await lockCompanyAdmins(tx, ctx), userId, 'delete');
    if (lastAdmin) throw new AppError(lastAdmin);
    const removed = await deleteUserRow(tx, ctx, userId);
    if (removed) await recordAudit(tx, ctx, { action: 'user.deleted', entityId: userId, changes: recordedFields(target, ['name', 'email', 'profile']) });
    return removed;
  });
  if (!deleted) throw new AppError('ERR_NO_USER_FOUND');
  // Its open sockets end on every node.
  await deps.access.changed({ companyId: ctx.companyId, userIds: [userId] });
  deps.events.emit('user.deleted', { companyId: ctx.companyId, userId });
}

/**
 * `GET /users/me/language` (whaticket v6's start-up language, `data.language`): the user's own
 * choice, else the company's language (DECISIONS §1). `own` says whether the user chose it.
 */
export async function myLanguage(deps: UsersDeps, ctx: RequestContext): Promise<{ language: string; own: boolean }> {
  const user = await findUser(deps.db, ctx, ctx.user.id);
  if (user?.language) return { language: user.language, own: true };
  return { language: (await findSetting(deps.db, ctx, 'language'))?.value ?? 'pt', own: false };
}

export async function setLanguage(deps: UsersDeps, ctx: RequestContext, language: string): Promise<void> {
  await updateUserRow(deps.db, ctx, ctx.user.id, { language });
}

/**
 * Presence from the socket server (connect, the 5-minute userStatus heartbeat,
 * the last socket closing). Only a change is published, so the users page's
 * online dot follows without an event per heartbeat.
 */
export async function setUserPresence(deps: UsersDeps, ctx: RequestContext, online: boolean): Promise<void> {
  const changed = online ? await markUserOnline(deps.db, ctx) : await markUserOffline(deps.db, ctx);
  if (!changed) return;
  const user = await findUser(deps.db, ctx, ctx.user.id);
  if (user) deps.events.emit('user.saved', { companyId: ctx.companyId, action: 'update', user });
}
