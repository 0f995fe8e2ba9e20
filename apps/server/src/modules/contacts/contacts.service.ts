import type { ContactBody, ContactListQuery, ContactUpdateBody } from '@atende/shared';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { loadTicketDetails } from '../tickets/tickets.repo.js';
import { recordWebhookEvent } from '../webhooks/webhook-outbox.js';
import type { DbOrTx } from '../../platform/db/client.js';
import type { TenantScope } from '../../platform/http/context.js';
import { editedNumber } from './contact-number.js';
import { presentContact, type ContactDetail } from './contacts.presenter.js';
import {
  contactTicketIds,
  deleteContactRow,
  findContact,
  findContactByNumber,
  insertContact,
  listAllContacts,
  listContacts,
  replaceExtraInfo,
  updateContactRow,
} from './contacts.repo.js';

/** Contacts are company-wide: every user of the company reads and writes them, and hears of their changes. */
export type ContactsDeps = Pick<Platform, 'db' | 'events'>;

/** Tickets whose list rows may be on screen when a contact changes or goes. */
const TICKETS_TO_REFRESH = 200;

function isDuplicateNumber(error: unknown): boolean {
  const candidates = [error, (error as { cause?: unknown }).cause];
  return candidates.some((e) => {
    const pgError = e as { code?: string; constraint?: string } | undefined;
    return pgError?.code === '23505' && (pgError.constraint === undefined || pgError.constraint === 'contacts_company_id_number_uq');
  });
}

/**
 * A contact's webhook event (issue 34 item 3), written in the transaction that changed it,
 * in order with the contact's others; presented as `GET /contacts/:id` shows it.
 */
async function recordContactWebhookEvent(tx: DbOrTx, scope: TenantScope, event: 'contact.created' | 'contact.updated', contactId: number): Promise<void> {
  await recordWebhookEvent(tx, {
    companyId: scope.companyId,
    event,
    orderingKey: `contact:${contactId}`,
    data: async () => {
      const contact = await findContact(tx, scope, contactId);
      return contact ? presentContact(contact) : { id: contactId };
    },
  });
}

export function contactPage(deps: Pick<Platform, 'db'>, ctx: RequestContext, query: ContactListQuery) {
  return listContacts(deps.db, ctx, query);
}

/** Every contact of the company, for pickers. */
export function allContacts(deps: Pick<Platform, 'db'>, ctx: RequestContext) {
  return listAllContacts(deps.db, ctx);
}

/** `GET /contacts/export`: every contact, for the CSV the contacts page downloads; the export is audited. */
export async function exportContacts(deps: Pick<Platform, 'db'>, ctx: RequestContext) {
  return deps.db.transaction(async (tx) => {
    const contacts = await listAllContacts(tx, ctx);
    await recordAudit(tx, ctx, { action: 'export.contacts', changes: { count: contacts.length } });
    return contacts;
  });
}

export async function showContact(deps: Pick<Platform, 'db'>, ctx: RequestContext, id: number): Promise<ContactDetail> {
  const contact = await findContact(deps.db, ctx, id);
  if (!contact) throw new AppError('ERR_NO_CONTACT_FOUND');
  return contact;
}

/**
 * A new contact, or (`created: false`) the company's contact that has the number already,
 * unchanged: whaticket v6 answers so, and its clients open that contact's chat.
 */
export async function createContact(deps: ContactsDeps, ctx: RequestContext, body: ContactBody): Promise<{ contact: ContactDetail; created: boolean }> {
  const id = await deps.db.transaction(async (tx) => {
    // The unique index (company_id, number) decides, so two racing creates cannot both win.
    const { extraInfo, ...fields } = body;
    const row = await insertContact(tx, ctx, fields);
    if (row && extraInfo?.length) await replaceExtraInfo(tx, ctx, row.id, extraInfo);
    if (row) await recordContactWebhookEvent(tx, ctx, 'contact.created', row.id);
    return row?.id ?? null;
  });
  if (id === null) {
    const existing = await findContactByNumber(deps.db, ctx, body.number);
    if (!existing) throw new AppError('ERR_DUPLICATED_CONTACT');
    return { contact: existing, created: false };
  }
  const contact = await showContact(deps, ctx, id);
  deps.events.emit('contact.saved', { companyId: ctx.companyId, action: 'create', contact });
  return { contact, created: true };
}

export async function updateContact(deps: ContactsDeps, ctx: RequestContext, id: number, body: ContactUpdateBody): Promise<ContactDetail> {
  const current = await showContact(deps, ctx, id);
  const number = editedNumber(body.number, current.number);
  try {
    await deps.db.transaction(async (tx) => {
      await updateContactRow(tx, ctx, id, { name: body.name, number, email: body.email, birthday: body.birthday, disableBot: body.disableBot, active: body.active });
      if (body.extraInfo) await replaceExtraInfo(tx, ctx, id, body.extraInfo);
      await recordContactWebhookEvent(tx, ctx, 'contact.updated', id);
    });
  } catch (error) {
    if (isDuplicateNumber(error)) throw new AppError('ERR_DUPLICATED_CONTACT');
    throw error;
  }
  const contact = await showContact(deps, ctx, id);
  deps.events.emit('contact.saved', { companyId: ctx.companyId, action: 'update', contact });
  if (contact.name !== current.name || contact.number !== current.number) await refreshTicketLists(deps, ctx, id);
  return contact;
}

/** Ticket rows show the contact's name and number: open lists get the new ones. */
async function refreshTicketLists(deps: ContactsDeps, ctx: RequestContext, contactId: number): Promise<void> {
  const ids = await contactTicketIds(deps.db, ctx, contactId, { activeOnly: true, limit: TICKETS_TO_REFRESH });
  for (const ticket of await loadTicketDetails(deps.db, ctx, ids)) {
    deps.events.emit('ticket.updated', { companyId: ctx.companyId, ticket });
  }
}

export async function deleteContact(deps: ContactsDeps, ctx: RequestContext, id: number): Promise<void> {
  await showContact(deps, ctx, id);
  authorize(ctx, 'contacts-page:deleteContact');
  // Its tickets go with it (foreign key cascade): lists showing them are told.
  const ticketIds = await contactTicketIds(deps.db, ctx, id, { activeOnly: false, limit: TICKETS_TO_REFRESH });
  const doomedTickets = await loadTicketDetails(deps.db, ctx, ticketIds);
  if (!(await deleteContactRow(deps.db, ctx, id))) throw new AppError('ERR_NO_CONTACT_FOUND');
  deps.events.emit('contact.deleted', { companyId: ctx.companyId, contactId: id });
  for (const ticket of doomedTickets) deps.events.emit('ticket.deleted', { companyId: ctx.companyId, ticket });
}
