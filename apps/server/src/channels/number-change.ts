import type { Platform } from '../platform/platform.js';
import type { TenantScope } from '../platform/http/context.js';
import { moveContactNumber } from './channels.repo.js';

export type NumberChangeDeps = Pick<Platform, 'db'>;

/**
 * The customer changed number (the channel said so): the company's contact
 * follows, unless the company already has a contact with the new number (then
 * both stay as they are, and the system line in the chat says what happened).
 */
export async function followNumberChange(deps: NumberChangeDeps, scope: TenantScope, from: string, newNumber: string): Promise<void> {
  if (!newNumber || newNumber === from) return;
  await moveContactNumber(deps.db, scope, from, newNumber);
}
