import type { ErrorCode, Profile } from '@atende/shared';

/**
 * Who may change or delete whom, apart from the database (issue 16, defect 1).
 * Pure functions: the service reads the records, these decide, so every rule is
 * unit-tested without a server. They answer the refusal's error code, or null.
 */
export interface PolicyUser {
  id: number;
  profile: Profile;
  super: boolean;
}

/** What an update asks to set; absent fields do not change. */
export interface UserChange {
  profile?: Profile;
  super?: boolean;
}

/**
 * Only a super user changes a super user (any field: password, email, name,
 * profile), and nobody lowers their own rights: an admin making itself a user,
 * or a super user dropping its own flag, would lock itself out.
 */
export function updateRefusal(actor: PolicyUser, target: PolicyUser, change: UserChange): ErrorCode | null {
  if (target.super && !actor.super) return 'ERR_NO_PERMISSION';
  if (actor.id === target.id) {
    if (target.profile === 'admin' && change.profile === 'user') return 'ERR_CANNOT_DEMOTE_SELF';
    if (target.super && change.super === false) return 'ERR_CANNOT_DEMOTE_SELF';
  }
  return null;
}

/** Nobody deletes itself; only a super user deletes a super user. */
export function deleteRefusal(actor: PolicyUser, target: PolicyUser): ErrorCode | null {
  if (actor.id === target.id) return 'ERR_CANNOT_DELETE_SELF';
  if (target.super && !actor.super) return 'ERR_NO_PERMISSION';
  return null;
}

/**
 * A company always keeps one admin. `adminIds` are the company's admins as read
 * under the company lock; `change` is 'delete' or the update's fields.
 */
export function lastAdminRefusal(adminIds: readonly number[], targetId: number, change: UserChange | 'delete'): ErrorCode | null {
  if (!adminIds.includes(targetId)) return null;
  const losesAdmin = change === 'delete' || change.profile === 'user';
  return losesAdmin && adminIds.length <= 1 ? 'ERR_LAST_ADMIN' : null;
}
