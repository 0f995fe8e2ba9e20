import { can } from '@atende/shared';
import type { RequestContext } from '../../platform/http/context.js';

/** Who may edit connections: they also see the API token, the Cloud API settings (secrets masked) and the QR code. */
export function isConnectionAdmin(ctx: RequestContext): boolean {
  return can(ctx.user, 'connections-page:editOrDeleteConnection');
}
