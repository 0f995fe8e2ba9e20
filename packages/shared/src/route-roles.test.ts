import { describe, expect, it } from 'vitest';
import { meetsRouteRole, ROUTE_ROLES, routeKey, routeRole } from './route-roles.js';

const user = { profile: 'user', super: false } as const;
const admin = { profile: 'admin', super: false } as const;
const superAdmin = { profile: 'admin', super: true } as const;

describe('route roles', () => {
  it('orders the roles: user < admin < super', () => {
    expect([user, admin, superAdmin].map((s) => meetsRouteRole(s, 'user'))).toEqual([true, true, true]);
    expect([user, admin, superAdmin].map((s) => meetsRouteRole(s, 'admin'))).toEqual([false, true, true]);
    expect([user, admin, superAdmin].map((s) => meetsRouteRole(s, 'super'))).toEqual([false, false, true]);
  });

  it('folds HEAD into GET and knows no route it was not told of', () => {
    expect(routeKey('HEAD', '/tickets')).toBe('GET /tickets');
    expect(routeRole(routeKey('HEAD', '/companies'))).toBe('super');
    expect(routeRole('GET /nowhere')).toBeUndefined();
  });

  it('keys every route as METHOD /path', () => {
    const malformed = Object.keys(ROUTE_ROLES).filter((key) => !/^(GET|POST|PUT|DELETE|PATCH) \/\S*$/.test(key));
    expect(malformed).toEqual([]);
  });
});
