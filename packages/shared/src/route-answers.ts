import { z } from 'zod';
import {
  ContactImportResultSchema,
  ExistingContactAnswerSchema,
  PresentedContactPageSchema,
  PresentedContactSchema,
  PresentedContactSummarySchema,
  PresentedMessagePageSchema,
  PresentedMessageSchema,
  PresentedTicketPageSchema,
  PresentedTicketSchema,
} from './desk-contracts.js';
import { AuditLogPageSchema } from './audit-log-schemas.js';
import type { ErrorCode } from './errors.js';
import { ExternalSendBody } from './phone-schemas.js';
import type { RouteKey } from './route-roles.js';
import { SendMessageBody } from './ticket-schemas.js';

/**
 * What the OpenAPI document (`GET /openapi.json`, apps/server/src/platform/http/openapi.ts)
 * says of a route beyond what its registration carries (method, path, the zod schemas of
 * its params, query and body) and `ROUTE_ROLES` (who may call it):
 *
 * - `answers`: the zod schema of each success status's body (the presenters' types
 *   derive from the same schemas, so the document cannot drift from the code; the
 *   OpenAPI test checks real answers against them).
 * - `body`: the body of a route that reads it itself (multipart or JSON), not
 *   through Fastify's `schema.body`.
 * - `errors`: the domain codes the route answers besides the ones every route of its
 *   kind does (validation, session, role, plan: the generator adds those).
 *
 * Keys are `ROUTE_ROLES`'s. A route not here is documented from its registration
 * alone, its answer "application/json" without a schema.
 */
export interface RouteAnswer {
  summary?: string;
  answers?: Partial<Record<200 | 201, { schema: z.ZodType; description?: string }>>;
  body?: { schema: z.ZodType; multipart?: { files: string } };
  errors?: ErrorCode[];
  /** The route's own credential instead of a user's session (the external API's connection token). */
  credential?: 'connectionToken';
}

const deleted = z.object({ message: z.string() });
const count = z.object({ count: z.number().int() });
const ok = (schema: z.ZodType, description?: string) => ({ 200: { schema, ...(description ? { description } : {}) } });
const created = (schema: z.ZodType) => ({ 201: { schema } });

/** What `POST /api/messages/send` answers. */
export const ExternalSendAnswerSchema = z.object({
  message: z.string(),
  ticketId: z.number().int(),
  /** The stored messages: one per file, or one for the text. */
  messageIds: z.array(z.number().int()),
});

/** The answers the document names (its components/schemas): each written once there, referred to elsewhere. */
export const NAMED_ANSWER_SCHEMAS: Record<string, z.ZodType> = {
  PresentedTicket: PresentedTicketSchema,
  PresentedTicketPage: PresentedTicketPageSchema,
  PresentedMessage: PresentedMessageSchema,
  PresentedMessagePage: PresentedMessagePageSchema,
  PresentedContact: PresentedContactSchema,
  PresentedContactPage: PresentedContactPageSchema,
  PresentedContactSummary: PresentedContactSummarySchema,
  ExistingContactAnswer: ExistingContactAnswerSchema,
  ContactImportResult: ContactImportResultSchema,
  ExternalSendAnswer: ExternalSendAnswerSchema,
};

const TICKET_RACES: ErrorCode[] = ['ERR_TICKET_ALREADY_ACCEPTED', 'ERR_TICKET_ALREADY_CLOSED', 'ERR_TICKET_CHANGED'];
const SEND_ERRORS: ErrorCode[] = [
  'ERR_NO_TICKET_FOUND',
  'ERR_TICKET_NOT_OPEN',
  'ERR_EMPTY_MESSAGE',
  'ERR_NO_STICKER_FOUND',
  'ERR_UNKNOWN_MESSAGE_VARIABLE',
  'ERR_OUTSIDE_CUSTOMER_WINDOW',
  'ERR_WAPP_NOT_INITIALIZED',
  'ERR_SENDING_WAPP_MSG',
  'ERR_WA_UNDELIVERABLE',
  'ERR_WA_RATE_LIMITED',
  'ERR_WA_UNAVAILABLE',
  'ERR_WA_TOKEN_INVALID',
  'ERR_INVALID_FILE_TYPE',
];

export const ROUTE_ANSWERS: Partial<Record<RouteKey, RouteAnswer>> = {
  // tickets
  'GET /tickets': { summary: 'A page of the tickets the caller may see', answers: ok(PresentedTicketPageSchema) },
  'GET /tickets/count': { summary: 'How many tickets the same query lists', answers: ok(count) },
  'GET /tickets/u/:uuid': { summary: 'A ticket by its uuid', answers: ok(PresentedTicketSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'GET /tickets/:id': { summary: 'A ticket', answers: ok(PresentedTicketSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'POST /tickets': {
    summary: 'Open a ticket for a contact',
    answers: created(PresentedTicketSchema),
    errors: ['ERR_NO_CONTACT_FOUND', 'ERR_NO_WAPP_FOUND', 'ERR_NO_DEF_WAPP_FOUND', 'ERR_OTHER_OPEN_TICKET'],
  },
  'PUT /tickets/:id': {
    summary: 'Accept, transfer, close or reopen a ticket',
    answers: ok(PresentedTicketSchema),
    errors: ['ERR_NO_TICKET_FOUND', 'ERR_NO_QUEUE_FOUND', 'ERR_NO_USER_FOUND', 'ERR_OTHER_OPEN_TICKET', ...TICKET_RACES],
  },
  'POST /tickets/closeAll': { summary: "Close every ticket of the caller's open or pending tab", answers: ok(z.object({ closed: z.number().int() })) },
  'DELETE /tickets/:id': { summary: 'Delete a ticket and its messages', answers: ok(deleted), errors: ['ERR_NO_TICKET_FOUND'] },
  // messages
  'GET /messages/:ticketId': { summary: "A page of a ticket's conversation (oldest first)", answers: ok(PresentedMessagePageSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'POST /messages/:ticketId': {
    summary: 'Send a text, or files (multipart, field `medias`), on a ticket',
    answers: created(z.array(PresentedMessageSchema)),
    body: { schema: SendMessageBody, multipart: { files: 'medias' } },
    errors: SEND_ERRORS,
  },
  'POST /messages/:messageId/retry': { summary: 'Send a failed message again', answers: ok(PresentedMessageSchema), errors: ['ERR_NO_MESSAGE_FOUND', 'ERR_MESSAGE_NOT_FAILED', ...SEND_ERRORS] },
  'DELETE /messages/:id': { summary: 'Delete a message (for everyone on WhatsApp)', answers: ok(PresentedMessageSchema), errors: ['ERR_NO_MESSAGE_FOUND', 'ERR_DELETE_WAPP_MSG'] },
  'POST /messages/edit/:messageId': {
    summary: "Edit one's own sent text",
    answers: ok(PresentedMessageSchema),
    errors: ['ERR_NO_MESSAGE_FOUND', 'ERR_MESSAGE_NOT_EDITABLE', 'ERR_EDIT_WINDOW_EXPIRED', 'ERR_MESSAGE_DELETED', 'ERR_MESSAGE_NOT_SENT', 'ERR_EDIT_NOT_SUPPORTED', 'ERR_EDITING_WAPP_MSG'],
  },
  'PUT /messages/:id': {
    summary: "Edit one's own sent text",
    answers: ok(PresentedMessageSchema),
    errors: ['ERR_NO_MESSAGE_FOUND', 'ERR_MESSAGE_NOT_EDITABLE', 'ERR_EDIT_WINDOW_EXPIRED', 'ERR_MESSAGE_DELETED', 'ERR_MESSAGE_NOT_SENT', 'ERR_EDIT_NOT_SUPPORTED', 'ERR_EDITING_WAPP_MSG'],
  },
  'POST /message/forward': { summary: 'Forward messages to contacts', answers: ok(z.object({ messages: z.array(PresentedMessageSchema) })), errors: ['ERR_NO_MESSAGE_FOUND', ...SEND_ERRORS] },
  // contacts
  'GET /audit-logs': { summary: 'A page of the audit log, newest first', answers: ok(AuditLogPageSchema) },
  'GET /contacts': { summary: 'A page of the contacts', answers: ok(PresentedContactPageSchema) },
  'GET /contacts/export': { summary: 'Every contact of the company, for the CSV export (recorded in the audit log)', answers: ok(z.array(PresentedContactSummarySchema)) },
  'GET /contacts/list': { summary: 'Every contact of the company, for pickers', answers: ok(z.array(PresentedContactSummarySchema)) },
  'GET /contacts/:id': { summary: 'A contact', answers: ok(PresentedContactSchema), errors: ['ERR_NO_CONTACT_FOUND'] },
  'POST /contacts': {
    summary: 'Create a contact (200 with the existing one when the number is known)',
    answers: { 201: { schema: PresentedContactSchema }, 200: { schema: ExistingContactAnswerSchema, description: 'The company has the number already: that contact.' } },
    errors: ['ERR_DUPLICATED_CONTACT'],
  },
  'PUT /contacts/:id': { summary: 'Change a contact', answers: ok(PresentedContactSchema), errors: ['ERR_NO_CONTACT_FOUND', 'ERR_DUPLICATED_CONTACT'] },
  'DELETE /contacts/:id': { summary: 'Delete a contact, its tickets and messages', answers: ok(deleted), errors: ['ERR_NO_CONTACT_FOUND'] },
  'POST /contacts/upload': { summary: 'Import contacts from rows (JSON) or a spreadsheet (multipart, field `file`)', answers: ok(ContactImportResultSchema), errors: ['ERR_INVALID_SPREADSHEET', 'ERR_SPREADSHEET_TOO_LARGE'] },
  'POST /contacts/import': { summary: "Import the phone's contacts from the default connection", answers: ok(ContactImportResultSchema), errors: ['ERR_WAPP_NOT_INITIALIZED'] },
  // the external send API (the connection's token)
  'POST /api/messages/send': {
    summary: "Send a message to a number through the token's connection",
    answers: ok(ExternalSendAnswerSchema),
    body: { schema: ExternalSendBody, multipart: { files: 'medias' } },
    credential: 'connectionToken',
    errors: ['ERR_INVALID_API_TOKEN', 'ERR_SUBSCRIPTION_EXPIRED', 'ERR_COMPANY_SUSPENDED', 'ERR_PLAN_FEATURE_DISABLED', 'ERR_WAPP_INVALID_CONTACT', 'ERR_CREATING_TICKET', ...SEND_ERRORS],
  },
};
