import { z } from 'zod';
import { dateTime, requiredText } from './validation.js';

/**
 * Company API keys (issue 34): what a key may do. A key reaches only the routes
 * `ROUTE_SCOPES` (route-scopes.ts) gives one of its scopes.
 */
export const API_KEY_SCOPES = ['tickets:read', 'tickets:write', 'messages:send', 'contacts:read', 'contacts:write', 'webhooks:manage'] as const;
export type ApiKeyScope = (typeof API_KEY_SCOPES)[number];

/** Every key starts with this, so a secret scanner (and the auth hook) knows one when it sees it. */
export const API_KEY_PREFIX = 'atk_';

export const ApiKeyBody = z.object({
  name: requiredText(1, 100),
  scopes: z
    .array(z.enum(API_KEY_SCOPES, { error: 'validation.invalidValue' }))
    .min(1, 'validation.required')
    .max(API_KEY_SCOPES.length, 'validation.tooLong')
    .transform((scopes) => [...new Set(scopes)]),
  /** When the key stops working; absent or null: never. */
  expiresAt: dateTime().nullable().optional(),
});
export type ApiKeyBody = z.infer<typeof ApiKeyBody>;

/** A key as `GET /api-keys` lists it: never its secret (only the non-secret id part, to tell keys apart). */
export const PresentedApiKeySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  /** The key's public beginning (`atk_<id>`), shown so an admin can tell which key a system holds. */
  prefix: z.string(),
  scopes: z.array(z.enum(API_KEY_SCOPES)),
  expiresAt: z.string().nullable(),
  lastUsedAt: z.string().nullable(),
  lastUsedIp: z.string().nullable(),
  revokedAt: z.string().nullable(),
  createdAt: z.string(),
  createdBy: z.object({ id: z.number().int(), name: z.string() }).nullable(),
});
export type PresentedApiKey = z.output<typeof PresentedApiKeySchema>;

/** `POST /api-keys`'s answer: the only time the secret is shown. */
export const CreatedApiKeySchema = PresentedApiKeySchema.extend({ key: z.string() });
export type CreatedApiKey = z.output<typeof CreatedApiKeySchema>;
