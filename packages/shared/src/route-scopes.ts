import type { ApiKeyScope } from './api-key-schemas.js';

/**
 * The routes a company API key may call (issue 34), and the scope each needs. Keys are
 * `METHOD /path` as in `ROUTE_ROLES` (route-roles.ts). A route not in this table refuses
 * every key (403 `ERR_API_KEY_ROUTE`), whatever its scopes: sessions, users, settings,
 * connections, billing and the keys themselves stay for people signed in. A key with the
 * wrong scopes gets 403 `ERR_API_KEY_SCOPE` naming the scope it lacks.
 *
 * A key acts as the admin who made it (docs/architecture.md, "Company API keys"), so the
 * routes' own rules see an admin; the scope is the narrowing.
 */
export const ROUTE_SCOPES = {
  // tickets and their messages, read
  'GET /tickets': 'tickets:read',
  'GET /tickets/count': 'tickets:read',
  'GET /tickets/u/:uuid': 'tickets:read',
  'GET /tickets/:id': 'tickets:read',
  'GET /messages/:ticketId': 'tickets:read',
  'GET /messages/:ticketId/window': 'tickets:read',
  // tickets, changed
  'POST /tickets': 'tickets:write',
  'PUT /tickets/:id': 'tickets:write',
  'DELETE /tickets/:id': 'tickets:write',
  'PUT /ticket-tags/:ticketId/:tagId': 'tickets:write',
  'DELETE /ticket-tags/:ticketId': 'tickets:write',
  // messages, sent into a ticket
  'POST /messages/:ticketId': 'messages:send',
  'POST /messages/:ticketId/template': 'messages:send',
  // contacts
  'GET /contacts': 'contacts:read',
  'GET /contacts/list': 'contacts:read',
  'GET /contacts/:id': 'contacts:read',
  'POST /contacts': 'contacts:write',
  'PUT /contacts/:id': 'contacts:write',
  'DELETE /contacts/:id': 'contacts:write',
  // event webhooks (issue 34 item 3)
  'GET /webhooks': 'webhooks:manage',
  'POST /webhooks': 'webhooks:manage',
  'PUT /webhooks/:id': 'webhooks:manage',
  'DELETE /webhooks/:id': 'webhooks:manage',
  'GET /webhooks/:id/deliveries': 'webhooks:manage',
  'POST /webhooks/:id/deliveries/:deliveryId/retry': 'webhooks:manage',
} as const satisfies Record<string, ApiKeyScope>;

/** The scope a key needs for a route (`routeKey(method, url)`), or undefined: no key may call it. */
export function routeScope(key: string): ApiKeyScope | undefined {
  return (ROUTE_SCOPES as Record<string, ApiKeyScope>)[key];
}
