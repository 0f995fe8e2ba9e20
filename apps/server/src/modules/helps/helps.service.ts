import type { HelpBody, HelpUpdateBody } from '@atende/shared';
import type { HelpRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { Platform } from '../../platform/platform.js';
import { deleteHelp, insertHelp, listHelps, updateHelp } from './helps.repo.js';

export type HelpsDeps = Pick<Platform, 'db'>;

/** Help videos are platform data: every signed-in user reads them; the routes let only super users write. */
export function listAllHelps(deps: HelpsDeps): Promise<HelpRow[]> {
  return listHelps(deps.db);
}

export function createHelp(deps: HelpsDeps, body: HelpBody): Promise<HelpRow> {
  return insertHelp(deps.db, body);
}

export async function changeHelp(deps: HelpsDeps, id: number, body: HelpUpdateBody): Promise<HelpRow> {
  const help = await updateHelp(deps.db, id, body);
  if (!help) throw new AppError('ERR_NO_HELP_FOUND');
  return help;
}

export async function removeHelp(deps: HelpsDeps, id: number): Promise<void> {
  if (!(await deleteHelp(deps.db, id))) throw new AppError('ERR_NO_HELP_FOUND');
}
