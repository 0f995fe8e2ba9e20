import type { AppServices } from '../app.js';
import type { TenantScope } from '../platform/http/context.js';
import { loadSetting } from './automation.repo.js';

/**
 * Setting CheckMsgIsGroup (spec part 2 §5): `enabled` means the company ignores
 * group chats, so their messages are neither stored nor answered.
 */
export async function groupMessagesIgnored(services: AppServices, scope: TenantScope): Promise<boolean> {
  return (await loadSetting(services.db, scope, 'CheckMsgIsGroup')) === 'enabled';
}
