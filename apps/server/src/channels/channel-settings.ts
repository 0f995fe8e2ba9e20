import { SETTING_DEFINITIONS } from '@atende/shared';
import type { DbOrTx } from '../platform/db/client.js';
import { settingValues } from './channels.repo.js';

/** The company settings a channel obeys while receiving (spec part 1 §9, part 2 §5). */
export interface ChannelSettings {
  /** `CheckMsgIsGroup` = 'enabled': group messages are ignored. */
  ignoreGroups: boolean;
  /** `call` = 'disabled': calls are refused with a message asking for text. */
  rejectCalls: boolean;
}

export async function channelSettings(db: DbOrTx, companyId: number): Promise<ChannelSettings> {
  const rows = await settingValues(db, { companyId }, ['CheckMsgIsGroup', 'call']);
  const value = (key: 'CheckMsgIsGroup' | 'call') => rows.find((row) => row.key === key)?.value ?? SETTING_DEFINITIONS[key].default;
  return { ignoreGroups: value('CheckMsgIsGroup') === 'enabled', rejectCalls: value('call') === 'disabled' };
}
