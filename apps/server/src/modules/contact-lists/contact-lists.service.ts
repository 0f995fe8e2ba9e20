import type { ContactListItemBody, ContactListItemsQuery, ContactListItemUpdateBody, ContactListsQuery, ContactListUploadResult } from '@atende/shared';
import type { ContactListItemRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { TenantScope } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { editedNumber } from '../contacts/contact-number.js';
import { COLUMNS, cell, readRow, readSheetRecords } from '../contacts/contacts-import.service.js';
import type { ContactListChecks } from './contact-lists.jobs.js';
import {
  deleteContactList,
  deleteContactListItem,
  findContactList,
  findContactListItem,
  insertContactList,
  insertContactListItems,
  listAllContactLists,
  listCompanyContactListItems,
  listContactListItems,
  listContactLists,
  renameContactList,
  updateContactListItem,
  type ContactListDetail,
  type NewListItem,
} from './contact-lists.repo.js';

/** Contact lists and their items; a new or changed number is queued for the WhatsApp check. */
export type ContactListsDeps = Pick<Platform, 'db' | 'events'> & { contactListChecks: ContactListChecks };

/** The largest spreadsheet accepted, in rows (beyond it the upload is refused, not cut; the reading stops at the first row past it). */
const MAX_UPLOAD_ROWS = 20_000;

async function requireList(deps: Pick<Platform, 'db'>, scope: TenantScope, id: number): Promise<ContactListDetail> {
  const list = await findContactList(deps.db, scope, id);
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

async function emitListSaved(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, id: number, action: 'create' | 'update') {
  const list = await findContactList(deps.db, scope, id);
  if (list) deps.events.emit('contactList.saved', { companyId: scope.companyId, action, contactList: list });
  return list;
}

export function contactListPage(deps: Pick<Platform, 'db'>, scope: TenantScope, query: ContactListsQuery) {
  return listContactLists(deps.db, scope, query);
}

/** Every list of the company, by name: what a campaign's list picker offers. */
export function allContactLists(deps: Pick<Platform, 'db'>, scope: TenantScope): Promise<ContactListDetail[]> {
  return listAllContactLists(deps.db, scope);
}

/** A page of a list's items (another company's list is not found). */
export async function contactListItemPage(deps: Pick<Platform, 'db'>, scope: TenantScope, query: ContactListItemsQuery) {
  await requireList(deps, scope, query.contactListId);
  return listContactListItems(deps.db, scope, query);
}

/** The most items `/contact-list-items/list` answers at once. */
const ITEM_LIST_LIMIT = 5000;

/**
 * `GET /contact-list-items/list` (a whaticket v6 hook): the items of one list (another company's is
 * not found), or of every list of the company, by name, at most ITEM_LIST_LIMIT.
 */
export async function findContactListItems(deps: Pick<Platform, 'db'>, scope: TenantScope, contactListId: number | undefined) {
  if (contactListId) await requireList(deps, scope, contactListId);
  return listCompanyContactListItems(deps.db, scope, contactListId, ITEM_LIST_LIMIT);
}

export async function showContactList(deps: Pick<Platform, 'db'>, scope: TenantScope, id: number) {
  return requireList(deps, scope, id);
}

export async function createContactList(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, name: string) {
  const list = await insertContactList(deps.db, scope, name);
  deps.events.emit('contactList.saved', { companyId: scope.companyId, action: 'create', contactList: list });
  return list;
}

export async function updateContactList(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, id: number, name: string | undefined) {
  if (name !== undefined && !(await renameContactList(deps.db, scope, id, name))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  const list = await emitListSaved(deps, scope, id, 'update');
  if (!list) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  return list;
}

export async function removeContactList(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, id: number) {
  if (!(await deleteContactList(deps.db, scope, id))) throw new AppError('ERR_NO_CONTACT_LIST_FOUND');
  deps.events.emit('contactList.deleted', { companyId: scope.companyId, contactListId: id });
}

export async function showContactListItem(deps: Pick<Platform, 'db'>, scope: TenantScope, id: number) {
  const item = await findContactListItem(deps.db, scope, id);
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  return item;
}

export async function createContactListItem(deps: ContactListsDeps, scope: TenantScope, body: ContactListItemBody) {
  await requireList(deps, scope, body.contactListId);
  const [item] = await insertContactListItems(deps.db, scope, body.contactListId, [{ name: body.name, number: body.number, email: body.email }]);
  if (!item) throw new AppError('ERR_DUPLICATED_LIST_ITEM');
  deps.events.emit('contactListItem.saved', { companyId: scope.companyId, action: 'create', item });
  await emitListSaved(deps, scope, body.contactListId, 'update');
  await deps.contactListChecks.queue(scope, body.contactListId);
  return item;
}

export async function updateListItem(deps: ContactListsDeps, scope: TenantScope, id: number, body: ContactListItemUpdateBody) {
  const before = await showContactListItem(deps, scope, id);
  const number = editedNumber(body.number, before.number);
  const numberChanged = number !== undefined && number !== before.number;
  let item: ContactListItemRow | null;
  try {
    // A new number is checked on WhatsApp again.
    item = await updateContactListItem(deps.db, scope, id, { name: body.name, number, email: body.email, ...(numberChanged ? { isWhatsappValid: null } : {}) });
  } catch (error) {
    if ((error as { code?: string; cause?: { code?: string } }).code === '23505' || (error as { cause?: { code?: string } }).cause?.code === '23505') {
      throw new AppError('ERR_DUPLICATED_LIST_ITEM');
    }
    throw error;
  }
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  deps.events.emit('contactListItem.saved', { companyId: scope.companyId, action: 'update', item });
  if (numberChanged) await deps.contactListChecks.queue(scope, item.contactListId);
  return item;
}

export async function removeContactListItem(deps: Pick<Platform, 'db' | 'events'>, scope: TenantScope, id: number) {
  const item = await deleteContactListItem(deps.db, scope, id);
  if (!item) throw new AppError('ERR_NO_CONTACT_LIST_ITEM_FOUND');
  deps.events.emit('contactListItem.deleted', { companyId: scope.companyId, item });
  await emitListSaved(deps, scope, item.contactListId, 'update');
}

/**
 * `POST /contact-lists/{id}/upload`: the spreadsheet's rows become items; each
 * row that cannot (invalid, or a number already in the list) is reported with
 * its line number and the rest are kept.
 */
export async function uploadContactList(deps: ContactListsDeps, scope: TenantScope, id: number, file: { data: Buffer; fileName: string }): Promise<ContactListUploadResult> {
  await requireList(deps, scope, id);
  if (!/\.xlsx?$/i.test(file.fileName)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['validation.fileType'] } });
  const rows = await readSheetRecords(file.data, MAX_UPLOAD_ROWS);
  const errors: ContactListUploadResult['errors'] = [];
  const candidates: (NewListItem & { row: number })[] = [];
  const seen = new Set<string>();
  rows.forEach(({ line, record: row }) => {
    const fields = { name: cell(row, COLUMNS.name), number: cell(row, COLUMNS.number), email: cell(row, COLUMNS.email) };
    const read = readRow(fields);
    if ('problem' in read) {
      errors.push({ row: line, name: fields.name, number: fields.number, ...read.problem });
      return;
    }
    const parsed = read.contact;
    if (seen.has(parsed.number)) {
      errors.push({ row: line, name: parsed.name, number: parsed.number, message: 'ERR_DUPLICATED_LIST_ITEM', fields: { number: 'ERR_DUPLICATED_LIST_ITEM' } });
      return;
    }
    seen.add(parsed.number);
    candidates.push({ row: line, name: parsed.name, number: parsed.number, email: parsed.email });
  });
  const inserted = await insertContactListItems(deps.db, scope, id, candidates);
  const insertedNumbers = new Set(inserted.map((item) => item.number));
  for (const candidate of candidates) {
    if (!insertedNumbers.has(candidate.number)) {
      errors.push({ row: candidate.row, name: candidate.name, number: candidate.number, message: 'ERR_DUPLICATED_LIST_ITEM', fields: { number: 'ERR_DUPLICATED_LIST_ITEM' } });
    }
  }
  errors.sort((a, b) => a.row - b.row);
  deps.events.emit('contactListItem.reload', { companyId: scope.companyId, contactListId: id });
  await emitListSaved(deps, scope, id, 'update');
  if (inserted.length > 0) await deps.contactListChecks.queue(scope, id);
  return { imported: inserted.length, errors };
}
