import type { ApiKeyBody } from '@atende/shared';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import type { ApiKeyRow } from '../../platform/db/schema.js';
import { newApiKeySecret } from './api-key-secret.js';
import { insertApiKey, listApiKeyRows, revokeApiKeyRow, type ApiKeyListRow } from './api-keys.repo.js';

/** The database and the access changes (a revocation reaches every node's key cache). */
export type ApiKeysDeps = Pick<Platform, 'db' | 'access' | 'clock' | 'logger'>;

/** `GET /api-keys`: the company's keys, newest first, revoked ones included; never a secret. */
export async function listApiKeys(deps: ApiKeysDeps, ctx: RequestContext): Promise<ApiKeyListRow[]> {
  requireAdmin(ctx);
  return listApiKeyRows(deps.db, ctx);
}

/** `POST /api-keys`: a new key acting as the calling admin, narrowed to its scopes. The secret leaves here once. */
export async function createApiKey(deps: ApiKeysDeps, ctx: RequestContext, body: ApiKeyBody): Promise<{ row: ApiKeyRow; key: string }> {
  requireAdmin(ctx);
  const expiresAt = body.expiresAt ? new Date(body.expiresAt) : null;
  if (expiresAt && expiresAt.getTime() <= deps.clock.now().getTime()) {
    throw new AppError('ERR_VALIDATION', undefined, { fields: { expiresAt: ['Must be in the future'] } });
  }
  const secret = newApiKeySecret();
  const row = await deps.db.transaction(async (tx) => {
    const inserted = await insertApiKey(tx, ctx, {
      createdBy: ctx.user.id,
      name: body.name,
      prefix: secret.prefix,
      keyHash: secret.hash,
      scopes: body.scopes,
      expiresAt,
    });
    // The public prefix tells keys apart; the secret and its hash are never recorded.
    await recordAudit(tx, ctx, {
      action: 'api_key.created',
      entityId: inserted.id,
      changes: { name: inserted.name, prefix: inserted.prefix, scopes: inserted.scopes, expiresAt: inserted.expiresAt?.toISOString() ?? null },
    });
    return inserted;
  });
  deps.logger.child({ module: 'api-keys' }).info({ companyId: ctx.companyId, apiKeyId: row.id, prefix: row.prefix, scopes: row.scopes }, 'api key created');
  return { row, key: secret.key };
}

/** `DELETE /api-keys/:id`: revoked at once on every node (the access change empties their key caches). */
export async function revokeApiKey(deps: ApiKeysDeps, ctx: RequestContext, id: number): Promise<ApiKeyRow> {
  requireAdmin(ctx);
  const row = await deps.db.transaction(async (tx) => {
    const revoked = await revokeApiKeyRow(tx, ctx, id);
    if (revoked) await recordAudit(tx, ctx, { action: 'api_key.revoked', entityId: revoked.id, changes: { name: revoked.name, prefix: revoked.prefix } });
    return revoked;
  });
  if (!row) throw new AppError('ERR_NO_API_KEY_FOUND');
  await deps.access.changed({ companyId: ctx.companyId, userIds: [], apiKeyIds: [row.id] });
  deps.logger.child({ module: 'api-keys' }).info({ companyId: ctx.companyId, apiKeyId: row.id, prefix: row.prefix }, 'api key revoked');
  return row;
}
