import { ContactBody, type ContactListItemBody, type ContactListItemUpdateBody, type ContactListUploadResult } from '@atende/shared';
import { asc, desc, eq } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { whatsapps, type ContactListItemRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import { defineJob } from '../../platform/jobs/jobs.js';
import { SpreadsheetError, readSpreadsheet, type SheetTableResult } from '../../platform/spreadsheet/index.js';
import { COLUMNS, cell, rowProblem } from '../contacts/contacts-import.service.js';
import {
  checkProgress,
  deleteContactList,
  deleteContactListItem,
  findContactList,
  findContactListItem,
  insertContactList,
  insertContactListItems,
  markChecked,
  renameContactList,
  uncheckedItems,
  updateContactListItem,
  type ContactListDetail,
  type NewListItem,
} from './contact-lists.repo.js';
import { inTenant } from '../../platform/db/tenant.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'contactList.saved': { companyId: number; action: 'create' | 'update'; contactList: ContactListDetail };
    'contactList.deleted': { companyId: number; contactListId: number };
    'contactList.checking': { companyId: number; contactListId: number; total: number; unchecked: number };
    'contactListItem.saved': { companyId: number; action: 'create' | 'update'; item: ContactListItemRow };
    'contactListItem.deleted': { companyId: number; item: ContactListItemRow };
    /** Many items changed at once (an upload): clients reload the list's items. */
    'contactListItem.reload': { companyId: number; contactListId: number };
  }
}

/** The largest spreadsheet accepted, in rows (beyond it the upload is refused, not cut; the reading stops at the first row past it). */
export const MAX_UPLOAD_ROWS = 20_000;

async function requireList(services: AppServices, scope: TenantScope, id: number): Promise<ContactListDetail> {
  const list = await findContactList(services.db, scope, id);
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

async function emitListSaved(services: AppServices, scope: TenantScope, id: number, action: 'create' | 'update') {
  const list = await findContactList(services.db, scope, id);
  if (list) services.events.emit('contactList.saved', { companyId: scope.companyId, action, contactList: list });
  return list;
}

export async function showContactList(services: AppServices, scope: TenantScope, id: number) {
  return requireList(services, scope, id);
}

export async function createContactList(services: AppServices, scope: TenantScope, name: string) {
  const list = await insertContactList(services.db, scope, name);
  services.events.emit('contactList.saved', { companyId: scope.companyId, action: 'create', contactList: list });
  return list;
}

export async function updateContactList(services: AppServices, scope: TenantScope, id: number, name: string | undefined) {
  if (name !== undefined && !(await renameContactList(services.db, scope, id, name))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const list = await emitListSaved(services, scope, id, 'update');
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

export async function removeContactList(services: AppServices, scope: TenantScope, id: number) {
  if (!(await deleteContactList(services.db, scope, id))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  services.events.emit('contactList.deleted', { companyId: scope.companyId, contactListId: id });
}

export async function showContactListItem(services: AppServices, scope: TenantScope, id: number) {
  const item = await findContactListItem(services.db, scope, id);
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return item;
}

export async function createContactListItem(services: AppServices, scope: TenantScope, body: ContactListItemBody) {
  await requireList(services, scope, body.contactListId);
  const [item] = await insertContactListItems(services.db, scope, body.contactListId, [{ name: body.name, number: body.number, email: body.email }]);
  if (!item) throw new AppError('ERR_DUPLICATED_LIST_ITEM');
  services.events.emit('contactListItem.saved', { companyId: scope.companyId, action: 'create', item });
  await emitListSaved(services, scope, body.contactListId, 'update');
  await queueCheck(services, scope, body.contactListId);
  return item;
}

export async function updateListItem(services: AppServices, scope: TenantScope, id: number, body: ContactListItemUpdateBody) {
  const before = await showContactListItem(services, scope, id);
  const numberChanged = body.number !== undefined && body.number !== before.number;
  let item: ContactListItemRow | null;
  try {
    // A new number is checked on WhatsApp again.
    item = await updateContactListItem(services.db, scope, id, { name: body.name, number: body.number, email: body.email, ...(numberChanged ? { isWhatsappValid: null } : {}) });
  } catch (error) {
    if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
      throw new AppError('ERR_DUPLICATED_LIST_ITEM');
    }
    throw error;
  }
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  services.events.emit('contactListItem.saved', { companyId: scope.companyId, action: 'update', item });
  if (numberChanged) await queueCheck(services, scope, item.contactListId);
  return item;
}

export async function removeContactListItem(services: AppServices, scope: TenantScope, id: number) {
  const item = await deleteContactListItem(services.db, scope, id);
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  services.events.emit('contactListItem.deleted', { companyId: scope.companyId, item });
  await emitListSaved(services, scope, item.contactListId, 'update');
}

/** Why a spreadsheet was refused, as the API answers it. */
function refusal(error: unknown): unknown {
  if (!(error instanceof SpreadsheetError)) return error;
  switch (error.reason) {
    case 'invalid':
      return new AppError('ERR_INVALID_SPREADSHEET');
    case 'tooManyRows':
      return new AppError('ERR_VALIDATION', undefined, { message: `At most ${MAX_UPLOAD_ROWS} rows per spreadsheet`, fields: { file: ['validation.tooLong'] } });
    case 'tooLarge':
    case 'timeout':
      return new AppError('ERR_SPREADSHEET_TOO_LARGE');
    case 'busy':
      return new AppError('ERR_SERVICE_UNAVAILABLE', undefined, {}, { 'retry-after': '5' });
  }
}

/**
 * The first worksheet (`.xlsx` or `.xls`) as rows keyed by the first row's
 * titles, with their line numbers; blank rows are skipped. Read off the event
 * loop, and only up to the first row past the cap.
 */
async function readSheet(data: Buffer): Promise<{ line: number; record: Record<string, unknown> }[]> {
  let table: SheetTableResult;
  try {
    table = await readSpreadsheet(data, { maxRows: MAX_UPLOAD_ROWS });
  } catch (error) {
    throw refusal(error);
  }
  const { titles, rows } = table;
  return rows.map(({ line, cells }) => ({ line, record: Object.fromEntries(titles.flatMap((title, column) => (title ? [[title, cells[column] ?? '']] : []))) }));
}

/**
 * `POST /contact-lists/{id}/upload`: the spreadsheet's rows become items; each
 * row that cannot (invalid, or a number already in the list) is reported with
 * its line number and the rest are kept.
 */
export async function uploadContactList(services: AppServices, scope: TenantScope, id: number, file: { data: Buffer; fileName: string }): Promise<ContactListUploadResult> {
  await requireList(services, scope, id);
  if (!/\.xlsx?$/i.test(file.fileName)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['validation.fileType'] } });
  const rows = await readSheet(file.data);
  const errors: ContactListUploadResult['errors'] = [];
  const candidates: (NewListItem & { row: number })[] = [];
  const seen = new Set<string>();
  rows.forEach(({ line, record: row }) => {
    const fields = { name: cell(row, COLUMNS.name), number: cell(row, COLUMNS.number), email: cell(row, COLUMNS.email) };
    const problem = rowProblem(fields);
    if (problem) {
      errors.push({ row: line, name: fields.name, number: fields.number, ...problem });
      return;
    }
    const parsed = ContactBody.parse(fields);
    if (seen.has(parsed.number)) {
      errors.push({ row: line, name: parsed.name, number: parsed.number, message: 'ERR_DUPLICATED_LIST_ITEM', fields: { number: 'ERR_DUPLICATED_LIST_ITEM' } });
      return;
    }
    seen.add(parsed.number);
    candidates.push({ row: line, name: parsed.name, number: parsed.number, email: parsed.email });
  });
  const inserted = await insertContactListItems(services.db, scope, id, candidates);
  const insertedNumbers = new Set(inserted.map((item) => item.number));
  for (const candidate of candidates) {
    if (!insertedNumbers.has(candidate.number)) {
      errors.push({ row: candidate.row, name: candidate.name, number: candidate.number, message: 'ERR_DUPLICATED_LIST_ITEM', fields: { number: 'ERR_DUPLICATED_LIST_ITEM' } });
    }
  }
  errors.sort((a, b) => a.row - b.row);
  services.events.emit('contactListItem.reload', { companyId: scope.companyId, contactListId: id });
  await emitListSaved(services, scope, id, 'update');
  if (inserted.length > 0) await queueCheck(services, scope, id);
  return { imported: inserted.length, errors };
}

/** Numbers checked per job run before it queues its continuation. */
const CHECK_BATCH = 50;

/** Checks a list's unchecked numbers on WhatsApp through the company's default connected connection. */
const checkJob = (services: AppServices) =>
  defineJob<{ companyId: number; contactListId: number }>({
    name: 'contact-lists.check',
    options: { policy: 'short', retryLimit: 5, retryDelay: 30, retryBackoff: true, expireInSeconds: 300 },
    async handler({ companyId, contactListId }) {
      const scope: TenantScope = { companyId };
      const [connection] = await services.db
        .select()
        .from(whatsapps)
        .where(inTenant(whatsapps, { companyId }, eq(whatsapps.status, 'CONNECTED')))
        .orderBy(desc(whatsapps.isDefault), asc(whatsapps.id))
        .limit(1);
      // No connected number: the items stay unchecked (the icon says so) until one connects and the list changes.
      if (!connection) return;
      const provider = services.channels.providerFor(connection);
      const batch = await uncheckedItems(services.db, scope, contactListId, CHECK_BATCH);
      const results: { id: number; valid: boolean }[] = [];
      for (const item of batch) {
        const checked = await provider.checkNumber(connection, item.number).catch(() => null);
        if (checked) results.push({ id: item.id, valid: checked.exists });
      }
      await markChecked(services.db, scope, results);
      const progress = await checkProgress(services.db, scope, contactListId);
      services.events.emit('contactList.checking', { companyId, contactListId, ...progress });
      services.events.emit('contactListItem.reload', { companyId, contactListId });
      if (results.length > 0 && progress.unchecked > 0) await queueCheck(services, scope, contactListId);
    },
  });

/** Each app's own job definition (its handler holds that app's services). */
const definitions = new WeakMap<AppServices, ReturnType<typeof checkJob>>();

async function queueCheck(services: AppServices, scope: TenantScope, contactListId: number): Promise<void> {
  const definition = definitions.get(services);
  if (definition) await services.jobs.send(definition, { companyId: scope.companyId, contactListId }, { singletonKey: `${scope.companyId}:${contactListId}` });
}

export function registerContactListJobs(services: AppServices): void {
  const definition = checkJob(services);
  definitions.set(services, definition);
  services.jobs.register(definition);
}
