import { describe, expect, it } from 'vitest';
import { deleteRefusal, lastAdminRefusal, updateRefusal, type PolicyUser } from './users.policy.js';

const admin: PolicyUser = { id: 1, profile: 'admin', super: false };
const otherAdmin: PolicyUser = { id: 2, profile: 'admin', super: false };
const agent: PolicyUser = { id: 3, profile: 'user', super: false };
const superUser: PolicyUser = { id: 4, profile: 'admin', super: true };
const otherSuper: PolicyUser = { id: 5, profile: 'user', super: true };

describe('users policy', () => {
  it('only a super user changes a super user, whatever the field', () => {
    expect(updateRefusal(admin, superUser, {})).toBe('ERR_NO_PERMISSION');
    expect(updateRefusal(admin, superUser, { profile: 'admin' })).toBe('ERR_NO_PERMISSION');
    expect(updateRefusal(agent, otherSuper, {})).toBe('ERR_NO_PERMISSION');
    expect(updateRefusal(superUser, otherSuper, { profile: 'admin', super: false })).toBeNull();
    expect(updateRefusal(admin, otherAdmin, { profile: 'user' })).toBeNull();
    expect(updateRefusal(admin, agent, { profile: 'admin' })).toBeNull();
  });

  it('nobody lowers their own profile or drops their own super flag', () => {
    expect(updateRefusal(admin, admin, { profile: 'user' })).toBe('ERR_CANNOT_DEMOTE_SELF');
    expect(updateRefusal(superUser, superUser, { super: false })).toBe('ERR_CANNOT_DEMOTE_SELF');
    expect(updateRefusal(superUser, superUser, { profile: 'user' })).toBe('ERR_CANNOT_DEMOTE_SELF');
    // Resending what one already has is not a demotion.
    expect(updateRefusal(admin, admin, { profile: 'admin' })).toBeNull();
    expect(updateRefusal(superUser, superUser, { super: true })).toBeNull();
    expect(updateRefusal(agent, agent, { profile: 'user' })).toBeNull();
  });

  it('nobody deletes itself; only a super user deletes a super user', () => {
    expect(deleteRefusal(admin, admin)).toBe('ERR_CANNOT_DELETE_SELF');
    expect(deleteRefusal(superUser, superUser)).toBe('ERR_CANNOT_DELETE_SELF');
    expect(deleteRefusal(admin, superUser)).toBe('ERR_NO_PERMISSION');
    expect(deleteRefusal(superUser, otherSuper)).toBeNull();
    expect(deleteRefusal(admin, otherAdmin)).toBeNull();
  });

  it('the last admin of a company is neither deleted nor demoted', () => {
    expect(lastAdminRefusal([1], 1, 'delete')).toBe('ERR_LAST_ADMIN');
    expect(lastAdminRefusal([1], 1, { profile: 'user' })).toBe('ERR_LAST_ADMIN');
    expect(lastAdminRefusal([1, 2], 1, 'delete')).toBeNull();
    expect(lastAdminRefusal([1, 2], 2, { profile: 'user' })).toBeNull();
    // Not an admin (any more): nothing to protect.
    expect(lastAdminRefusal([1], 3, 'delete')).toBeNull();
    expect(lastAdminRefusal([1], 1, { profile: 'admin' })).toBeNull();
    expect(lastAdminRefusal([1], 1, {})).toBeNull();
  });
});
