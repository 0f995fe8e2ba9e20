import { CONTACT_UPLOAD_MAX_ROWS, ContactBody, PHONE_NUMBER_MESSAGES, receivedPhoneNumber, type ContactUploadBody, type PhoneNumberProblem } from '@atende/shared';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { Platform } from '../../platform/platform.js';
import { SpreadsheetError, readSpreadsheet, type SheetTableResult } from '../../platform/spreadsheet/index.js';
import type { ChannelGateway } from '../connections/channel-provider.js';
import type { ContactImportResult } from './contacts.presenter.js';
import { connectedConnections, insertContacts, type NewContact } from './contacts.repo.js';

/** A spreadsheet's rows or the connections' address books become contacts; lists hear of the new ones. */
export type ContactImportDeps = Pick<Platform, 'db' | 'events'> & { channels: Pick<ChannelGateway, 'providerFor'> };

type ErrorEntry = ContactImportResult['errorBag'][number];

/** Column titles accepted for each field, compared trimmed, lowercased and without accents. */
export const COLUMNS = {
  name: ['name', 'nome'],
  number: ['number', 'numero', 'phone', 'telefone', 'celular'],
  email: ['email', 'e-mail'],
} as const;

/** Beyond this many new contacts a bulk import sends no per-contact realtime event (lists reload instead). */
const MAX_LIVE_EVENTS = 100;

const DUPLICATE_MESSAGE = 'ERR_DUPLICATED_CONTACT';

/** Why a spreadsheet was refused, as the API answers it. */
function refusal(error: unknown, maxRows: number): unknown {
  if (!(error instanceof SpreadsheetError)) return error;
  switch (error.reason) {
    case 'invalid':
      return new AppError('ERR_INVALID_SPREADSHEET');
    case 'tooManyRows':
      return new AppError('ERR_VALIDATION', undefined, { message: `At most ${maxRows} rows per spreadsheet`, fields: { file: ['validation.tooLong'] } });
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
 * loop, and only up to the first row past the cap. Contact lists read theirs with it too.
 */
export async function readSheetRecords(data: Buffer, maxRows: number): Promise<{ line: number; record: Record<string, unknown> }[]> {
  let table: SheetTableResult;
  try {
    table = await readSpreadsheet(data, { maxRows });
  } catch (error) {
    throw refusal(error, maxRows);
  }
  const { titles, rows } = table;
  return rows.map(({ line, cells }) => ({ line, record: Object.fromEntries(titles.flatMap((title, column) => (title ? [[title, cells[column] ?? '']] : []))) }));
}

/**
 * `POST /contacts/upload` as whaticket v6 sends it: the spreadsheet itself (`.xlsx`/`.xls`)
 * in the multipart field `file`, read as the JSON rows the web app sends, within the same row cap.
 */
export async function uploadContactsFile(deps: Pick<Platform, 'db' | 'events'>, ctx: RequestContext, file: { data: Buffer; fileName: string }): Promise<ContactImportResult> {
  if (!/\.xlsx?$/i.test(file.fileName)) throw new AppError('ERR_INVALID_FILE_TYPE', undefined, { fields: { file: ['validation.fileType'] } });
  const rows = await readSheetRecords(file.data, CONTACT_UPLOAD_MAX_ROWS);
  return uploadContacts(deps, ctx, rows.map(({ record }) => record as ContactUploadBody[number]));
}

function normalizeTitle(title: string): string {
  return title
    .trim()
    .toLowerCase()
    .normalize('NFD')
    .replace(/\p{Diacritic}/gu, '');
}

export function cell(row: Record<string, unknown>, titles: readonly string[]): string {
  for (const [title, value] of Object.entries(row)) {
    if (value === null || value === undefined) continue;
    if (titles.includes(normalizeTitle(title))) return String(value).trim();
  }
  return '';
}

/** What the sentence of a refused row says of its number, per problem the normaliser found. */
const NUMBER_PROBLEMS: Record<PhoneNumberProblem, (number: string) => string> = {
  required: () => 'the number is missing',
  tooShort: (number) => `the number "${number}" has too few digits for a phone number (write the area code)`,
  tooLong: (number) => `the number "${number}" has too many digits for a phone number`,
  unknownCountry: (number) => `the number "${number}" starts with an unknown country code`,
  invalid: (number) => `the number "${number}" is not a valid phone number`,
};

const PROBLEM_OF_MESSAGE = new Map<string, PhoneNumberProblem>(Object.entries(PHONE_NUMBER_MESSAGES).map(([problem, key]) => [key, problem as PhoneNumberProblem]));

/**
 * A spreadsheet row read with the contact form's schema: the contact (its number
 * through the one normaliser), or why it cannot become one: a sentence for API
 * clients, and per field the validation key (`validation.phoneTooShort`, ...)
 * the web translates.
 */
export function readRow(fields: { name: string; number: string; email: string }): { contact: ContactBody } | { problem: { message: string; fields: Record<string, string> } } {
  const parsed = ContactBody.safeParse(fields);
  if (parsed.success) return { contact: parsed.data };
  const keys: Record<string, string> = {};
  for (const issue of parsed.error.issues) {
    const field = String(issue.path[0]);
    keys[field] ??= issue.message;
  }
  const problems: string[] = [];
  if (keys.name) problems.push(fields.name ? 'the name must have 2 to 50 characters' : 'the name is missing');
  if (keys.number) problems.push(NUMBER_PROBLEMS[PROBLEM_OF_MESSAGE.get(keys.number) ?? 'invalid'](fields.number));
  if (keys.email) problems.push(`the email "${fields.email}" is not valid`);
  const text = problems.join('; ');
  return { problem: { message: text.charAt(0).toUpperCase() + text.slice(1), fields: keys } };
}

/**
 * Inserts the candidates (already valid and without repeated numbers); the
 * ones whose number exists are reported or skipped, as the caller asks.
 */
async function insertNew(
  deps: Pick<Platform, 'db' | 'events'>,
  ctx: RequestContext,
  candidates: NewContact[],
  reportExisting: boolean,
): Promise<Pick<ContactImportResult, 'newContacts'> & { existing: ErrorEntry[] }> {
  const inserted = await insertContacts(deps.db, ctx, candidates);
  const insertedNumbers = new Set(inserted.map((row) => row.number));
  const existing: ErrorEntry[] = reportExisting
    ? candidates
        .filter((c) => !insertedNumbers.has(c.number))
        .map((c) => ({ contactName: c.name, error: { message: DUPLICATE_MESSAGE, code: 'ERR_DUPLICATED_CONTACT' } }))
    : [];
  if (inserted.length <= MAX_LIVE_EVENTS) {
    for (const row of inserted) deps.events.emit('contact.saved', { companyId: ctx.companyId, action: 'create', contact: { ...row, extraInfo: [] } });
  }
  return { newContacts: inserted.map((row) => ({ contactId: row.id, contactName: row.name })), existing };
}

/**
 * `POST /contacts/upload`: spreadsheet rows become contacts. A bad row or a
 * number the company already has is reported in `errorBag`; the rest is saved.
 */
export async function uploadContacts(deps: Pick<Platform, 'db' | 'events'>, ctx: RequestContext, rows: ContactUploadBody): Promise<ContactImportResult> {
  const errorBag: ErrorEntry[] = [];
  const candidates: NewContact[] = [];
  const seen = new Set<string>();
  rows.forEach((row, index) => {
    const fields = { name: cell(row, COLUMNS.name), number: cell(row, COLUMNS.number), email: cell(row, COLUMNS.email).toLowerCase() };
    if (!fields.name && !fields.number && !fields.email) return;
    const contactName = fields.name || fields.number || `#${index + 1}`;
    const read = readRow(fields);
    if ('problem' in read) {
      errorBag.push({ contactName, error: { ...read.problem, code: 'ERR_VALIDATION' } });
      return;
    }
    const { number } = read.contact;
    if (seen.has(number)) {
      errorBag.push({ contactName, error: { message: DUPLICATE_MESSAGE, code: 'ERR_DUPLICATED_CONTACT' } });
      return;
    }
    seen.add(number);
    candidates.push({ name: read.contact.name, number, email: read.contact.email });
  });
  const { newContacts, existing } = await insertNew(deps, ctx, candidates, true);
  return { newContacts, errorBag: [...errorBag, ...existing] };
}

/**
 * `POST /contacts/import`: the address books of the company's connected
 * connections, through providers that can list them. Numbers the company
 * already has are merged silently (importing twice is not an error).
 */
export async function importContacts(deps: ContactImportDeps, ctx: RequestContext): Promise<ContactImportResult> {
  const connections = await connectedConnections(deps.db, ctx);
  const errorBag: ErrorEntry[] = [];
  const byNumber = new Map<string, NewContact>();
  for (const connection of connections) {
    let entries: { number: string; name: string }[];
    try {
      const provider = deps.channels.providerFor(connection);
      if (!provider.listContacts) continue;
      entries = await provider.listContacts(connection);
    } catch {
      errorBag.push({ contactName: connection.name, error: { message: 'The connection could not list its contacts', code: 'ERR_WAPP_NOT_INITIALIZED' } });
      continue;
    }
    for (const entry of entries) {
      // The address book's numbers are WhatsApp's own ids: received numbers, kept as the channel gave them.
      const number = receivedPhoneNumber(entry.number);
      const digits = /^\d+$/.test(number) ? number.length : 0;
      if (digits < 8 || digits > 50) {
        errorBag.push({
          contactName: entry.name || entry.number,
          error: { message: `The number "${entry.number}" must have 8 to 50 digits`, code: 'ERR_VALIDATION', fields: { number: digits < 8 ? 'validation.tooShort' : 'validation.tooLong' } },
        });
        continue;
      }
      if (byNumber.has(number)) continue;
      // Address books often hold no name, or a long one: the number stands in, the name is cut to the form's limit.
      const name = entry.name.trim().length >= 2 ? entry.name.trim().slice(0, 50) : number;
      byNumber.set(number, { name, number, email: '', whatsappId: connection.id });
    }
  }
  const { newContacts } = await insertNew(deps, ctx, [...byNumber.values()], false);
  return { newContacts, errorBag };
}
