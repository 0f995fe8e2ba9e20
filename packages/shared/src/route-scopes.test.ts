import { describe, expect, it } from 'vitest';
import { API_KEY_SCOPES } from './api-key-schemas.js';
import { ROUTE_ROLES, routeRole } from './route-roles.js';
import { ROUTE_SCOPES, routeScope } from './route-scopes.js';

describe('route scopes of company API keys', () => {
  it('names only private routes of the role table, with known scopes', () => {
    for (const [key, scope] of Object.entries(ROUTE_SCOPES)) {
      expect(key in ROUTE_ROLES, key).toBe(true);
      expect(['user', 'admin'], key).toContain(routeRole(key));
      expect(API_KEY_SCOPES, key).toContain(scope);
    }
  });

  it('never lets a key manage keys, users or the platform', () => {
    for (const key of ['GET /api-keys', 'POST /api-keys', 'DELETE /api-keys/:id', 'GET /users', 'GET /auth/me', 'PUT /settings/:key']) expect(routeScope(key), key).toBeUndefined();
  });

  it('gives every scope at least one route', () => {
    const used = new Set<string>(Object.values(ROUTE_SCOPES));
    expect(API_KEY_SCOPES.filter((scope) => !used.has(scope))).toEqual([]);
  });
});
