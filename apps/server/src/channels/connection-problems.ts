import type { WhatsappRow } from '../platform/db/schema.js';
import type { Platform } from '../platform/platform.js';
import { writeSessionState } from '../modules/connections/connection-state.js';

/** What writing a connection's session state takes (the write and its `connection.session` event). */
export type ConnectionProblemDeps = Pick<Platform, 'db' | 'events'>;

/**
 * Keeps a channel problem on the connection for its admins (shown on the
 * connections page, live). A token the channel no longer accepts also
 * disconnects it: the side menu's badge lights until an admin fixes it.
 */
export async function noteConnectionProblem(
  deps: ConnectionProblemDeps,
  connection: Pick<WhatsappRow, 'companyId' | 'id'>,
  code: string,
  words: { title?: string; message?: string; error_data?: { details?: string } } = {},
): Promise<void> {
  const detail = [words.title ?? words.message, words.error_data?.details].filter(Boolean).join(': ').slice(0, 500);
  const problem = { code, ...(detail ? { detail } : {}), at: new Date().toISOString() };
  const ref = { companyId: connection.companyId, whatsappId: connection.id };
  await writeSessionState(deps, ref, code === 'ERR_WA_TOKEN_INVALID' ? { status: 'DISCONNECTED', problem } : { problem });
}
