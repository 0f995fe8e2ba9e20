import type { ConnectionStatus } from '@atende/shared';
import { findConnection } from '../modules/connections/connections.repo.js';
import { writeSessionState } from '../modules/connections/connection-state.js';
import type { WhatsappRow } from '../platform/db/schema.js';
import { AppError } from '../platform/http/app-error.js';
import type { RequestContext } from '../platform/http/context.js';
import { authorize } from '../platform/http/guards.js';
import type { Platform } from '../platform/platform.js';

export type TestSessionDeps = Pick<Platform, 'db' | 'events'>;

/** Browser tests play a session's part: the state a provider would write, through the same write and events. */
export async function writeTestSessionState(
  deps: TestSessionDeps,
  ctx: RequestContext,
  whatsappId: number,
  patch: { status?: ConnectionStatus; qrcode?: string },
): Promise<WhatsappRow> {
  authorize(ctx, 'connections-page:actionButtons');
  const connection = await findConnection(deps.db, ctx, whatsappId);
  if (!connection) throw new AppError('ERR_NO_WAPP_FOUND');
  const row = await writeSessionState(deps, { companyId: ctx.companyId, whatsappId: connection.id }, patch);
  if (!row) throw new AppError('ERR_NO_WAPP_FOUND');
  return row;
}
