import { z } from 'zod';
import { CreatedApiKeySchema, PresentedApiKeySchema } from './api-key-schemas.js';
import { InvoiceViewSchema, PixCheckoutViewSchema, PublicAuthOptionsSchema, SubscriptionViewSchema } from './billing-schemas.js';
import { PresentedCampaignSchema } from './campaign-schemas.js';
import { PresentedAnnouncementSchema, PresentedChatMessageSchema, PresentedChatSchema } from './chat-schemas.js';
import { PresentedHolidayPeriodSchema, PresentedMessageTemplateSchema, PresentedTicketWindowSchema } from './connection-schemas.js';
import { ContactListUploadResultSchema, PresentedContactListItemSchema, PresentedContactListSchema } from './contact-list-schemas.js';
import { DashboardAnswerSchema, TicketsDayAnswerSchema, TicketsUsersAnswerSchema } from './dashboard-answers.js';
import {
  ContactImportResultSchema,
  ExistingContactAnswerSchema,
  PresentedConnectionDetailSchema,
  PresentedConnectionForAdminSchema,
  PresentedConnectionSessionSchema,
  PresentedContactPageSchema,
  PresentedContactSchema,
  PresentedContactSummarySchema,
  PresentedMessagePageSchema,
  PresentedMessageSchema,
  PresentedQueueSchema,
  PresentedQuickMessagePageSchema,
  PresentedQuickMessageSchema,
  PresentedStickerSchema,
  PresentedTagPageSchema,
  PresentedTagSchema,
  PresentedTagSummarySchema,
  PresentedTicketNoteSchema,
  PresentedTicketSchema,
  PresentedTicketPageSchema,
  PresentedTicketTagSchema,
  PresentedUserPageSchema,
  PresentedUserSchema,
} from './desk-contracts.js';
import { PresentedIntegrationSchema, PresentedPromptSchema, PresentedQueueOptionSchema } from './automation-schemas.js';
import { PresentedFileListSchema } from './file-list-schemas.js';
import {
  HealthAnswerSchema,
  OpenApiDocumentSchema,
  PresentedCompanyPlanSchema,
  PresentedCompanySchema,
  PresentedHelpSchema,
  PresentedPlanRowSchema,
  PresentedSettingSchema,
} from './platform-answers.js';
import { CampaignSettingEntrySchema, PresentedScheduleSchema } from './outbound-schemas.js';
import { AgentLoadAnswerSchema } from './auto-assign-schemas.js';
import { AuditLogPageSchema } from './audit-log-schemas.js';
import type { ErrorCode } from './errors.js';
import { ExternalSendBody } from './phone-schemas.js';
import type { RouteKey } from './route-roles.js';
import { SendMessageBody } from './ticket-schemas.js';
import {
  AsaasCustomerAnswerSchema,
  AsaasIdentificationFieldAnswerSchema,
  AsaasPaymentAnswerSchema,
  AsaasPixQrCodeAnswerSchema,
  AsaasWebhookAnswerSchema,
  AsaasWebhookListSchema,
  AsaasWebhookSchema,
  EfiChargeAnswerSchema,
  EfiLocationAnswerSchema,
  EfiQrCodeAnswerSchema,
  EfiRefundAnswerSchema,
  EfiTokenAnswerSchema,
  EfiWebhookAnswerSchema,
  FakeAsaasPayAnswerSchema,
  FakePspPayAnswerSchema,
  PixWebhookAnswerSchema,
  WebhookAddressCheckSchema,
} from './payment-answers.js';
import { PushSettingsSchema, VapidPublicKeySchema } from './push-schemas.js';
import { AppointmentsByAttendantSchema, DepartmentRatingsSchema, RushHourSchema, TicketReportPageSchema } from './report-answers.js';
import { SandboxConversationEntrySchema, SandboxInboundAnswerSchema, SandboxOutboxEntrySchema } from './sandbox-answers.js';
import { SlaBreachListSchema, SlaReportSchema } from './sla-answers.js';
import { CreatedWebhookSchema, RetriedWebhookDeliverySchema, WebhookDeliveryPageSchema, WebhookListSchema, WebhookSchema } from './webhook-schemas.js';
import { TwoFactorEnableAnswer, TwoFactorSetupAnswer, TwoFactorStatusSchema } from './two-factor-schemas.js';

/**
 * What the OpenAPI document (`GET /openapi.json`, apps/server/src/platform/http/openapi.ts)
 * says of a route beyond what its registration carries (method, path, the zod schemas of
 * its params, query and body) and `ROUTE_ROLES` (who may call it):
 *
 * - `answers`: each success status's body: a zod schema for JSON (the presenters' types
 *   derive from the same schemas, so the document cannot drift from the code; the
 *   OpenAPI test checks real answers against them), the media types of a body that is
 *   not JSON (a file, an image, text), or nothing for 204. `{}`: the route never
 *   succeeds (it always answers one of its `errors`).
 * - `body`: the body of a route that reads it itself (multipart or JSON), not
 *   through Fastify's `schema.body`.
 * - `errors`: the domain codes the route answers besides the ones every route of its
 *   kind does (validation, session, role, plan: the generator adds those).
 *
 * Keys are `ROUTE_ROLES`'s. Every route has an entry with `answers` (the OpenAPI test
 * fails on one without).
 */
export interface RouteAnswer {
  summary?: string;
  answers?: Partial<Record<SuccessStatus, RouteSuccess>>;
  body?: { schema: z.ZodType; multipart?: { files: string } };
  errors?: ErrorCode[];
  /** The route's own credential instead of a user's session (the external API's connection token, a provider's webhook). */
  credential?: 'connectionToken';
}

/** The success statuses a route may answer; 503 only for `GET /health`, whose body is its own, not the error envelope. */
export type SuccessStatus = 200 | 201 | 202 | 204 | 503;

/** One success answer: `schema` (JSON), `media` (the media types of a body that is not JSON), or neither (204: no body). */
export interface RouteSuccess {
  schema?: z.ZodType;
  media?: string[];
  description?: string;
}

const deleted = z.object({ message: z.string() });
const count = z.object({ count: z.number().int() });
const ok = (schema: z.ZodType, description?: string) => ({ 200: { schema, ...(description ? { description } : {}) } });
const created = (schema: z.ZodType) => ({ 201: { schema } });
const accepted = (schema: z.ZodType) => ({ 202: { schema } });
/** 204: done, no body. */
const noContent = (description = 'Done, no body') => ({ 204: { description } });
/** A body that is not JSON: its media types (ranges such as `image/*` allowed). */
const media = (types: string[], description: string) => ({ 200: { media: types, description } });
/** The media files' types (`sendMedia`: images, audio, video, PDF, anything else as a download). */
const MEDIA_FILE_TYPES = ['image/*', 'audio/*', 'video/*', 'application/pdf', 'application/octet-stream'];
const list = (schema: z.ZodType) => ok(z.array(schema));
/** A page of a list: its records under `key`, and whether more follow (`count` where the route counts them). */
const page = (key: string, schema: z.ZodType, counted: boolean) =>
  ok(z.object({ [key]: z.array(schema), hasMore: z.boolean(), ...(counted ? { count: z.number().int() } : {}) }));
/** A resource's five routes: the list (`GET /x`), one (`GET /x/:id`), create (201), change, delete. */
function crud(base: string, schema: z.ZodType, listAnswer: ReturnType<typeof ok>, name: string): Partial<Record<string, RouteAnswer>> {
  return {
    [`GET ${base}`]: { summary: `The ${name}s`, answers: listAnswer },
    [`GET ${base}/:id`]: { summary: `A ${name}`, answers: ok(schema) },
    [`POST ${base}`]: { summary: `Create a ${name}`, answers: created(schema) },
    [`PUT ${base}/:id`]: { summary: `Change a ${name}`, answers: ok(schema) },
    [`DELETE ${base}/:id`]: { summary: `Delete a ${name}`, answers: ok(deleted) },
  };
}
/** A record's attached file: `POST .../media-upload` (multipart, field `file`) and `DELETE .../media-upload` answer the record. */
function mediaUpload(base: string, schema: z.ZodType, name: string): Partial<Record<string, RouteAnswer>> {
  return {
    [`POST ${base}/:id/media-upload`]: { summary: `Attach a file to a ${name} (multipart, field \`file\`)`, answers: ok(schema) },
    [`DELETE ${base}/:id/media-upload`]: { summary: `Remove a ${name}'s file`, answers: ok(schema) },
  };
}

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
  PresentedUser: PresentedUserSchema,
  PresentedQueue: PresentedQueueSchema,
  PresentedTag: PresentedTagSchema,
  PresentedQuickMessage: PresentedQuickMessageSchema,
  PresentedConnection: PresentedConnectionDetailSchema,
  PresentedSchedule: PresentedScheduleSchema,
  PresentedCampaign: PresentedCampaignSchema,
  PresentedContactList: PresentedContactListSchema,
  PresentedContactListItem: PresentedContactListItemSchema,
  PresentedFileList: PresentedFileListSchema,
  PresentedChat: PresentedChatSchema,
  PresentedChatMessage: PresentedChatMessageSchema,
  PresentedAnnouncement: PresentedAnnouncementSchema,
  PresentedApiKey: PresentedApiKeySchema,
  Invoice: InvoiceViewSchema,
  PresentedCompany: PresentedCompanySchema,
  PresentedPlanRow: PresentedPlanRowSchema,
  PresentedHelp: PresentedHelpSchema,
  PresentedPrompt: PresentedPromptSchema,
  PresentedIntegration: PresentedIntegrationSchema,
  PresentedQueueOption: PresentedQueueOptionSchema,
  PresentedSetting: PresentedSettingSchema,
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
  // two-factor sign-in (issue 35)
  'GET /auth/2fa': { summary: "The caller's second factor: on or not, required by the company, recovery codes left", answers: ok(TwoFactorStatusSchema) },
  'POST /auth/2fa/setup': { summary: 'A new TOTP secret and its otpauth address (for a QR code)', answers: ok(TwoFactorSetupAnswer), errors: ['ERR_TWO_FACTOR_ALREADY_ENABLED'] },
  'POST /auth/2fa/enable': {
    summary: 'Turns the second factor on with its first code; answers the ten recovery codes, once',
    answers: ok(TwoFactorEnableAnswer),
    errors: ['ERR_INVALID_TWO_FACTOR_CODE', 'ERR_TWO_FACTOR_NOT_SET_UP', 'ERR_TWO_FACTOR_ALREADY_ENABLED'],
  },
  'POST /auth/2fa/disable': {
    summary: 'Turns the second factor off, with a code or the password',
    answers: noContent('Turned off'),
    errors: ['ERR_INVALID_TWO_FACTOR_CODE', 'ERR_WRONG_PASSWORD', 'ERR_TWO_FACTOR_NOT_SET_UP', 'ERR_TWO_FACTOR_REQUIRED_BY_COMPANY', 'ERR_TOO_MANY_REQUESTS'],
  },
  'POST /users/:id/2fa/reset': { summary: "A super user removes a user's second factor", answers: noContent('Removed'), errors: ['ERR_NO_USER_FOUND'] },
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
  // auto-assignment (issue 35)
  'GET /dashboard/agentLoad': { summary: "Each agent's open tickets, capacity and presence", answers: ok(AgentLoadAnswerSchema) },
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
  'GET /ticket/kanban': { summary: "The kanban's cards (tickets) of a page", answers: ok(z.object({ tickets: z.array(PresentedTicketSchema), count: z.number().int(), hasMore: z.boolean() })) },
  'PUT /ticket-tags/:ticketId/:tagId': { summary: 'Move a ticket to a kanban lane (a tag)', answers: ok(PresentedTicketSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'DELETE /ticket-tags/:ticketId': { summary: "Take a ticket off the kanban's lanes", answers: ok(PresentedTicketSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'GET /messages/:ticketId/window': { summary: "The ticket's 24-hour customer window (Cloud API connections)", answers: ok(PresentedTicketWindowSchema), errors: ['ERR_NO_TICKET_FOUND'] },
  'POST /messages/:ticketId/template': { summary: 'Send a message template (Cloud API connections)', answers: created(z.array(PresentedMessageSchema)), errors: ['ERR_NO_TICKET_FOUND', ...SEND_ERRORS] },
  'POST /messages/:messageId/reactions': {
    summary: 'React to a message',
    answers: ok(z.object({ message: PresentedMessageSchema, reactions: z.array(z.unknown()).describe("The message's `dataJson.reactions`") })),
    errors: ['ERR_NO_MESSAGE_FOUND'],
  },
  // session
  'POST /auth/login': { summary: 'Sign in: an access token (the refresh token is a cookie)', answers: ok(z.object({ token: z.string(), user: PresentedUserSchema })) },
  'POST /auth/refresh_token': { summary: 'A new access token from the refresh cookie', answers: ok(z.object({ token: z.string(), user: PresentedUserSchema })) },
  'DELETE /auth/logout': { summary: 'End the session of the refresh cookie', answers: noContent('Signed out') },
  'GET /auth/me': { summary: 'The signed-in user, with the company', answers: ok(PresentedUserSchema) },
  'GET /auth/options': { summary: 'Whether sign-up and e-mails are on', answers: ok(PublicAuthOptionsSchema) },
  // users
  'GET /users': { summary: 'A page of the users', answers: ok(PresentedUserPageSchema) },
  'GET /users/list': { summary: 'Every user of the company, for pickers', answers: list(PresentedUserSchema) },
  'GET /users/:id': { summary: 'A user', answers: ok(PresentedUserSchema) },
  'POST /users': { summary: 'Create a user', answers: created(PresentedUserSchema) },
  'PUT /users/:id': { summary: 'Change a user', answers: ok(PresentedUserSchema) },
  'DELETE /users/:id': { summary: 'Delete a user', answers: ok(deleted) },
  'GET /users/me/language': { summary: "The caller's language (`own`: chosen by the user, else the company's)", answers: ok(z.object({ language: z.string(), own: z.boolean() })) },
  'POST /users/set-language/:lang': { summary: "Set the caller's language", answers: ok(z.object({ language: z.string() })) },
  // queues, tags, quick messages, notes, stickers
  ...crud('/queue', PresentedQueueSchema, list(PresentedQueueSchema), 'queue'),
  ...mediaUpload('/queue', PresentedQueueSchema, 'queue'),
  ...crud('/tags', PresentedTagSchema, ok(PresentedTagPageSchema), 'tag'),
  'GET /tags/list': { summary: 'Every tag, for pickers', answers: list(PresentedTagSummarySchema) },
  'GET /tags/kanban': { summary: 'The kanban lanes', answers: ok(z.object({ lista: z.array(PresentedTagSummarySchema) })) },
  'POST /tags/sync': { summary: "Set a ticket's tags", answers: list(PresentedTicketTagSchema) },
  ...crud('/quick-messages', PresentedQuickMessageSchema, ok(PresentedQuickMessagePageSchema), 'quick message'),
  ...mediaUpload('/quick-messages', PresentedQuickMessageSchema, 'quick message'),
  'GET /quick-messages/list': { summary: 'The quick messages the caller may use, for the composer', answers: list(PresentedQuickMessageSchema) },
  'GET /ticket-notes/list': { summary: "A contact's notes", answers: list(PresentedTicketNoteSchema) },
  'POST /ticket-notes': { summary: 'Add a note', answers: created(PresentedTicketNoteSchema) },
  'DELETE /ticket-notes/:id': { summary: 'Delete a note', answers: ok(deleted) },
  'GET /stickers': { summary: 'The saved stickers', answers: list(PresentedStickerSchema) },
  'POST /stickers': { summary: 'Save a sticker (multipart, field `file`)', answers: created(PresentedStickerSchema) },
  'DELETE /stickers/:stickerId': { summary: 'Delete a sticker', answers: ok(deleted) },
  // connections
  'GET /whatsapp': { summary: 'The connections (the token, Cloud API settings and QR code for who may edit them)', answers: list(PresentedConnectionDetailSchema) },
  'GET /whatsapp/:id': { summary: 'A connection', answers: ok(PresentedConnectionDetailSchema) },
  'POST /whatsapp': { summary: 'Create a connection', answers: created(PresentedConnectionForAdminSchema) },
  'PUT /whatsapp/:id': { summary: 'Change a connection', answers: ok(PresentedConnectionForAdminSchema) },
  'DELETE /whatsapp/:id': { summary: 'Delete a connection', answers: ok(deleted) },
  'POST /whatsapp/:id/greeting-media': { summary: "Attach the greeting's file (multipart, field `file`)", answers: ok(PresentedConnectionForAdminSchema) },
  'DELETE /whatsapp/:id/greeting-media': { summary: "Remove the greeting's file", answers: ok(PresentedConnectionForAdminSchema) },
  'POST /whatsapp-restart': { summary: "Restart every connection's session", answers: ok(z.object({ message: z.string(), restarted: z.number().int() })) },
  'POST /whatsappsession/:id': { summary: 'Start the session again', answers: ok(z.object({ message: z.string(), session: PresentedConnectionSessionSchema })) },
  'PUT /whatsappsession/:id': { summary: 'A new QR code', answers: ok(z.object({ message: z.string(), session: PresentedConnectionSessionSchema })) },
  'DELETE /whatsappsession/:id': { summary: 'Disconnect the session', answers: ok(z.object({ message: z.string(), session: PresentedConnectionSessionSchema })) },
  'GET /whatsapp/:id/templates': { summary: "A Cloud API connection's message templates", answers: ok(z.object({ templates: z.array(PresentedMessageTemplateSchema) })) },
  'GET /whatsapp/:id/holiday-periods': { summary: "A connection's holiday periods", answers: list(PresentedHolidayPeriodSchema) },
  'POST /whatsapp/:id/holiday-periods': { summary: 'Add a holiday period', answers: ok(PresentedHolidayPeriodSchema) },
  'PUT /whatsapp/:id/holiday-periods/:periodId': { summary: 'Change a holiday period', answers: ok(PresentedHolidayPeriodSchema) },
  'DELETE /whatsapp/:id/holiday-periods/:periodId': { summary: 'Delete a holiday period', answers: ok(deleted) },
  // company API keys
  'GET /api-keys': { summary: "The company's API keys (never their secrets)", answers: list(PresentedApiKeySchema) },
  'POST /api-keys': { summary: 'Create an API key: the only answer that shows its secret', answers: created(CreatedApiKeySchema) },
  'DELETE /api-keys/:id': { summary: 'Revoke an API key', answers: ok(PresentedApiKeySchema), errors: ['ERR_NO_API_KEY_FOUND'] },
  // schedules, campaigns, contact lists, file lists
  ...crud('/schedules', PresentedScheduleSchema, page('schedules', PresentedScheduleSchema, true), 'schedule'),
  ...mediaUpload('/schedules', PresentedScheduleSchema, 'schedule'),
  ...crud('/campaigns', PresentedCampaignSchema, page('records', PresentedCampaignSchema, false), 'campaign'),
  'GET /campaigns/:id': { summary: 'A campaign, with its failed sends (`failures`)', answers: ok(PresentedCampaignSchema) },
  'POST /campaigns/:id/cancel': { summary: 'Cancel a campaign', answers: ok(PresentedCampaignSchema) },
  'POST /campaigns/:id/restart': { summary: 'Restart a cancelled campaign', answers: ok(PresentedCampaignSchema) },
  ...mediaUpload('/campaigns', PresentedCampaignSchema, 'campaign'),
  'GET /campaign-settings': { summary: "The campaigns' settings (key, JSON value)", answers: list(CampaignSettingEntrySchema) },
  'POST /campaign-settings': { summary: "Change the campaigns' settings", answers: list(CampaignSettingEntrySchema) },
  ...crud('/contact-lists', PresentedContactListSchema, page('records', PresentedContactListSchema, false), 'contact list'),
  'GET /contact-lists/list': { summary: 'Every contact list, for pickers', answers: list(PresentedContactListSchema) },
  'POST /contact-lists/:id/upload': { summary: 'Import a spreadsheet into a list (multipart, field `file`)', answers: ok(ContactListUploadResultSchema) },
  ...crud('/contact-list-items', PresentedContactListItemSchema, page('contacts', PresentedContactListItemSchema, false), 'contact list item'),
  'GET /contact-list-items/list': { summary: 'Every item of a list', answers: list(PresentedContactListItemSchema) },
  ...crud('/files', PresentedFileListSchema, page('files', PresentedFileListSchema, false), 'file list'),
  'POST /files/uploadList/:id': { summary: "Upload a file list's files (multipart)", answers: ok(PresentedFileListSchema) },
  // internal chat and announcements
  ...crud('/chats', PresentedChatSchema, page('records', PresentedChatSchema, false), 'chat'),
  'GET /chats/unread': { summary: 'How many chats have unread messages', answers: ok(count) },
  'POST /chats/:id/leave': { summary: 'Leave a chat', answers: ok(deleted) },
  'POST /chats/:id/read': { summary: "Mark a chat's messages read", answers: ok(PresentedChatSchema) },
  'GET /chats/:id/messages': { summary: "A page of a chat's messages", answers: page('records', PresentedChatMessageSchema, false) },
  'POST /chats/:id/messages': { summary: 'Write in a chat', answers: created(PresentedChatMessageSchema) },
  ...crud('/announcements', PresentedAnnouncementSchema, page('records', PresentedAnnouncementSchema, true), 'announcement'),
  ...mediaUpload('/announcements', PresentedAnnouncementSchema, 'announcement'),
  'GET /announcements/unread': { summary: 'How many announcements the caller has not read', answers: ok(count) },
  'POST /announcements/read': { summary: 'Mark every announcement read', answers: ok(count) },
  // dashboard
  'GET /dashboard': { summary: "The dashboard's counters and attendants", answers: ok(DashboardAnswerSchema) },
  'GET /dashboard/ticketsUsers': { summary: 'Tickets per user', answers: ok(TicketsUsersAnswerSchema) },
  'GET /dashboard/ticketsDay': { summary: 'Tickets per day (or hour)', answers: ok(TicketsDayAnswerSchema) },
  // billing
  'GET /invoices/all': { summary: "The company's invoices", answers: list(InvoiceViewSchema) },
  'GET /invoices/:id': { summary: 'An invoice', answers: ok(InvoiceViewSchema) },
  'GET /subscription': { summary: 'The subscription page', answers: ok(SubscriptionViewSchema) },
  'POST /subscription': { summary: 'Pay an invoice: a Pix code, a boleto or a card charge', answers: ok(PixCheckoutViewSchema) },
  'GET /invoices/list': { summary: "Every invoice of the company", answers: list(InvoiceViewSchema) },
  'POST /companies/:id/invoices': {
    summary: "Issue a company's invoice now",
    answers: { 201: { schema: InvoiceViewSchema, description: 'Issued' }, 200: { schema: InvoiceViewSchema, description: 'The company had an open invoice: that one.' } },
  },
  // sign-up and password reset (public)
  'POST /companies/cadastro': { summary: 'Sign up a company (a confirmation e-mail follows)', answers: created(z.object({ message: z.string() })) },
  'POST /forgetpassword/:email': {
    summary: 'Send a password reset code by e-mail',
    answers: ok(z.object({ status: z.union([z.literal(200), z.literal(404)]), message: z.string() }), '`status` 404 only where the platform reveals unknown addresses'),
  },
  'POST /resetpasswords/:email/:token/:newPassword': { summary: 'Reset a password with the e-mailed code (whaticket v6)', answers: ok(z.object({ message: z.string() })) },
  'POST /auth/reset-password': { summary: 'Reset a password with the e-mailed code', answers: ok(z.object({ message: z.string() })) },
  'GET /settings/viewregister': { summary: 'Whether sign-up is open (whaticket v6)', answers: ok(z.object({ key: z.literal('viewregister'), value: z.enum(['enabled', 'disabled']) })) },
  'GET /settings/allowregister': { summary: 'Whether sign-up is open (whaticket v6)', answers: ok(z.object({ key: z.literal('allowregister'), value: z.enum(['enabled', 'disabled']) })) },
  'GET /settings/trial': { summary: "The trial's days (whaticket v6)", answers: ok(z.object({ key: z.literal('trial'), value: z.string() })) },
  'GET /settings/system-default-language': {
    summary: "The platform's language, before sign-in (whaticket v6)",
    answers: ok(z.object({ key: z.literal('system-default-language'), value: z.string(), language: z.string() })),
  },
  // the platform: plans, companies, helps (super users), settings
  ...crud('/plans', PresentedPlanRowSchema, page('plans', PresentedPlanRowSchema, true), 'plan'),
  'GET /plans/all': { summary: 'Every plan', answers: list(PresentedPlanRowSchema) },
  ...crud('/companies', PresentedCompanySchema, page('companies', PresentedCompanySchema, true), 'company'),
  'GET /companies/list': { summary: 'Every company', answers: list(PresentedCompanySchema) },
  'GET /companies/listPlan/:companyId': { summary: "A company's plan", answers: ok(PresentedCompanyPlanSchema) },
  'PUT /companies/:id/schedules': { summary: "Set the company's business hours", answers: ok(PresentedCompanySchema) },
  'GET /helps': { summary: 'The help videos', answers: list(PresentedHelpSchema) },
  'GET /helps/list': { summary: 'The help videos', answers: list(PresentedHelpSchema) },
  'POST /helps': { summary: 'Create a help video', answers: created(PresentedHelpSchema) },
  'PUT /helps/:id': { summary: 'Change a help video', answers: ok(PresentedHelpSchema) },
  'DELETE /helps/:id': { summary: 'Delete a help video', answers: ok(deleted) },
  'GET /settings': { summary: 'The company settings the caller may see (secrets masked)', answers: list(PresentedSettingSchema) },
  'GET /settings/:key': { summary: 'A company setting', answers: ok(PresentedSettingSchema) },
  'PUT /settings/:key': { summary: 'Change a company setting', answers: ok(PresentedSettingSchema) },
  'POST /settings/media-upload': { summary: "Store a setting's file (multipart, field `file`)", answers: ok(z.object({ mensagem: z.string(), key: z.string(), filename: z.string() })) },
  'POST /settings/logo': {
    summary: 'Store the light or dark logo (multipart: `file`, `mode`)',
    answers: ok(z.object({ mensagem: z.string(), key: z.string(), filename: z.string(), mode: z.enum(['Light', 'Dark']) })),
  },
  'POST /settings/gerencianet-cert-upload': {
    summary: "Store the Efí (Gerencianet) certificate (multipart, field `file`)",
    answers: ok(z.object({ setting: PresentedSettingSchema, value: z.string(), key: z.string(), filename: z.string() })),
  },
  // the chatbot: options, AI prompts, integrations
  'GET /queue-options': { summary: "A level of a queue's chatbot options, with their sub-options", answers: list(PresentedQueueOptionSchema) },
  'GET /queue-options/:id': { summary: 'A chatbot option, with its sub-options', answers: ok(PresentedQueueOptionSchema) },
  'POST /queue-options': { summary: 'Create a chatbot option', answers: created(PresentedQueueOptionSchema) },
  'PUT /queue-options/:id': { summary: 'Change a chatbot option', answers: ok(PresentedQueueOptionSchema) },
  'DELETE /queue-options/:id': { summary: 'Delete a chatbot option and its sub-options', answers: ok(deleted) },
  ...mediaUpload('/queue-options', PresentedQueueOptionSchema, 'chatbot option'),
  ...crud('/prompt', PresentedPromptSchema, ok(z.object({ prompts: z.array(PresentedPromptSchema) })), 'AI prompt'),
  ...crud('/queueIntegration', PresentedIntegrationSchema, page('queueIntegrations', PresentedIntegrationSchema, true), 'integration'),
  'POST /queueIntegration': { summary: 'Create an integration (its signing secret shown whole this once)', answers: created(PresentedIntegrationSchema) },
  'POST /queueIntegration/testSession': { summary: 'Try a Dialogflow agent', answers: ok(z.object({ message: z.string(), intent: z.string(), reply: z.string() })) },
  'GET /plans/list': { summary: 'The plans, for the sign-up form', answers: list(PresentedPlanRowSchema) },
  'GET /plans/register': { summary: 'The plans, for the sign-up form (whaticket v6)', answers: list(PresentedPlanRowSchema) },
  'GET /version': { summary: "The server's version", answers: ok(z.object({ version: z.string() })) },
  'GET /messages-allMe': { summary: 'How many messages in a range (whaticket v6 reads `count[0].count`)', answers: ok(z.object({ count: z.array(count) })) },

  // the platform's own routes
  'GET /health': {
    summary: "The node's health: the database, DATA_DIR's free space, the media storage",
    answers: { 200: { schema: HealthAnswerSchema, description: 'Healthy (`status` ok)' }, 503: { schema: HealthAnswerSchema, description: 'Out of service: `status` storage_full or unavailable' } },
  },
  'GET /metrics': {
    summary: "This process's metrics in Prometheus's text format (the holder of METRICS_TOKEN; 404 while it is unset)",
    answers: media(['text/plain'], "Prometheus's text exposition format"),
    errors: ['ERR_SESSION_EXPIRED', 'ERR_NOT_FOUND'],
  },
  'GET /media/*': {
    summary: 'A stored file by its signed, expiring address (the signature is the credential)',
    answers: media(MEDIA_FILE_TYPES, 'The file: inline when an image, audio or video, else a download'),
    errors: ['ERR_NOT_FOUND', 'ERR_MEDIA_MISSING'],
  },
  'GET /openapi.json': { summary: 'This document', answers: ok(OpenApiDocumentSchema) },
  'GET /api-docs': { summary: "The API's reference page", answers: media(['text/html'], 'The page (its viewer loads /openapi.json)') },
  'GET /api-docs/:asset': { summary: "The reference page's script and style sheet", answers: media(['text/javascript', 'text/css'], 'viewer.js or viewer.css'), errors: ['ERR_NOT_FOUND'] },
  // whaticket v6's reports (issue 32): its field names
  'GET /reports/appointmentsAtendent': { summary: 'Conversations per agent and per queue in the range', answers: ok(AppointmentsByAttendantSchema) },
  'GET /reports/departamentRatings': { summary: 'The average rating per queue in the range', answers: ok(DepartmentRatingsSchema) },
  'GET /reports/rushHour': { summary: 'Conversations started per hour of the day in the range', answers: ok(RushHourSchema) },
  'GET /ticket/reports': { summary: 'A page of the tickets report (the tickets the caller may see)', answers: ok(TicketReportPageSchema) },
  'GET /messages/transcribeAudio/:fileName': {
    summary: 'whaticket v6\'s audio transcription: Atende has none, the call is always refused',
    answers: {},
    errors: ['ERR_TRANSCRIPTION_UNAVAILABLE'],
  },
  // Meta's Cloud API webhook (Meta's own verification and signature)
  'GET /cloud-api/webhook': {
    summary: "Meta's subscription check: answers `hub.challenge` to a connection's verify token",
    answers: media(['text/plain'], '`hub.challenge`'),
    errors: ['ERR_NO_PERMISSION'],
  },
  'POST /cloud-api/webhook': {
    summary: "Meta's events for the Cloud API connections (`X-Hub-Signature-256`); queued, then answered at once",
    answers: ok(z.object({ received: z.literal(true) })),
    errors: ['ERR_INVALID_API_TOKEN'],
  },
  // whaticket v6's public files: logos and saved stickers
  'GET /public/logotipos/:file': { summary: "The platform's logo (whaticket v6's address)", answers: media(['image/*', 'application/octet-stream'], 'The logo') },
  'GET /public/:companyDir/logotipos/:file': { summary: "A logo (whaticket v6's address)", answers: media(['image/*', 'application/octet-stream'], 'The logo') },
  'GET /public/:companyDir/stickers/salvos/*': {
    summary: "A saved sticker's image (whaticket v6's address; the name carries the signed link)",
    answers: media(MEDIA_FILE_TYPES, 'The image'),
    errors: ['ERR_NOT_FOUND', 'ERR_MEDIA_MISSING'],
  },
  // the payment providers' webhooks (their own credentials: the secret in the path, Asaas's token header)
  'POST /payments/pix/webhook/:secret': { summary: "The Pix PSP's payment notifications (Efí)", answers: ok(PixWebhookAnswerSchema), errors: ['ERR_NOT_FOUND'] },
  'POST /payments/pix/webhook/:secret/pix': { summary: "The Pix PSP's payment notifications (Efí posts to the URL + `/pix`)", answers: ok(PixWebhookAnswerSchema), errors: ['ERR_NOT_FOUND'] },
  'POST /payments/asaas/webhook': { summary: "Asaas's payment events (`asaas-access-token`)", answers: ok(AsaasWebhookAnswerSchema), errors: ['ERR_INVALID_API_TOKEN'] },
  'POST /subscription/validate/webhook': { summary: "whaticket v6's \"validate webhook\": the address checked for form, never called", answers: ok(WebhookAddressCheckSchema) },
  // the providers' stand-ins (PIX_PROVIDER=fake): Efí's and Asaas's shapes
  'POST /fake-psp/oauth/token': { summary: 'An access token (client credentials, HTTP Basic)', answers: ok(EfiTokenAnswerSchema) },
  'PUT /fake-psp/v2/cob/:txid': { summary: 'Create a Pix charge', answers: created(EfiChargeAnswerSchema) },
  'GET /fake-psp/v2/cob/:txid': { summary: 'A Pix charge', answers: ok(EfiChargeAnswerSchema) },
  'GET /fake-psp/v2/loc/:id': { summary: "A charge's location", answers: ok(EfiLocationAnswerSchema) },
  'GET /fake-psp/v2/loc/:id/qrcode': { summary: "A location's copy-and-paste code", answers: ok(EfiQrCodeAnswerSchema) },
  'PUT /fake-psp/v2/webhook/:chave': { summary: "Register a Pix key's webhook", answers: ok(EfiWebhookAnswerSchema) },
  'PUT /fake-psp/v2/pix/:e2eId/devolucao/:id': { summary: 'Refund a received Pix (settled at once)', answers: created(EfiRefundAnswerSchema) },
  'POST /fake-psp/pay': { summary: "The payer's side: pay the charge a code points to, then notify its webhook", answers: ok(FakePspPayAnswerSchema) },
  'POST /fake-asaas/v3/customers': { summary: 'Create a customer', answers: ok(AsaasCustomerAnswerSchema) },
  'POST /fake-asaas/v3/payments': { summary: 'Create a payment (a card is charged at once)', answers: ok(AsaasPaymentAnswerSchema) },
  'GET /fake-asaas/v3/payments/:id': { summary: 'A payment', answers: ok(AsaasPaymentAnswerSchema) },
  'GET /fake-asaas/v3/payments/:id/pixQrCode': { summary: "A Pix payment's QR code", answers: ok(AsaasPixQrCodeAnswerSchema) },
  'GET /fake-asaas/v3/payments/:id/identificationField': { summary: "A boleto's digitable line", answers: ok(AsaasIdentificationFieldAnswerSchema) },
  'GET /fake-asaas/v3/webhooks': { summary: "The account's webhooks", answers: ok(AsaasWebhookListSchema) },
  'POST /fake-asaas/v3/webhooks': { summary: 'Create a webhook', answers: ok(AsaasWebhookSchema) },
  'PUT /fake-asaas/v3/webhooks/:id': { summary: 'Change a webhook', answers: ok(AsaasWebhookSchema) },
  'POST /fake-asaas/pay': { summary: "The payer's side: a Pix or boleto payment received, then its webhooks called", answers: ok(FakeAsaasPayAnswerSchema) },
  // the sandbox connection's simulated phone (tests and demos)
  'POST /sandbox/:whatsappId/inbound': {
    summary: 'The customer sends a message (JSON, or multipart with a `file`)',
    answers: { 201: { schema: SandboxInboundAnswerSchema }, 200: { schema: SandboxInboundAnswerSchema, description: 'A message id already received: nothing new stored' } },
    errors: ['ERR_NO_WAPP_FOUND', 'ERR_EMPTY_MESSAGE'],
  },
  'POST /sandbox/:whatsappId/read': { summary: 'The customer opens the chat: what was sent to the number is read', answers: ok(z.object({ read: z.number().int() })), errors: ['ERR_NO_WAPP_FOUND'] },
  'POST /sandbox/:whatsappId/edit': { summary: 'The customer edits one of its messages', answers: ok(z.object({ edited: z.literal(true) })), errors: ['ERR_NO_WAPP_FOUND', 'ERR_NO_MESSAGE_FOUND'] },
  'POST /sandbox/:whatsappId/react': { summary: "The customer reacts to one of the product's messages", answers: ok(z.object({ reacted: z.literal(true) })), errors: ['ERR_NO_WAPP_FOUND', 'ERR_NO_MESSAGE_FOUND'] },
  'POST /sandbox/:whatsappId/revoke': { summary: 'The customer deletes one of its messages', answers: ok(z.object({ revoked: z.literal(true) })), errors: ['ERR_NO_WAPP_FOUND', 'ERR_NO_MESSAGE_FOUND'] },
  'GET /sandbox/:whatsappId/outbox': { summary: 'What the product sent to a number', answers: list(SandboxOutboxEntrySchema), errors: ['ERR_NO_WAPP_FOUND'] },
  'GET /sandbox/:whatsappId/conversation': { summary: 'Both sides of a conversation, in order', answers: list(SandboxConversationEntrySchema), errors: ['ERR_NO_WAPP_FOUND'] },
  'POST /test/connections/:id/session': { summary: "Browser tests only (NODE_ENV=test): play a connection's session states", answers: ok(PresentedConnectionSessionSchema) },
  // Web Push (issue 35): the caller's own browsers and choices
  'GET /push/vapid-public-key': { summary: 'The key browsers subscribe with', answers: ok(VapidPublicKeySchema) },
  'GET /push/settings': { summary: "The caller's push choices and subscribed browsers", answers: ok(PushSettingsSchema) },
  'PUT /push/settings': { summary: "Change the caller's push choices", answers: ok(PushSettingsSchema) },
  'POST /push/subscriptions': { summary: "Subscribe a browser (PushSubscription.toJSON())", answers: created(PushSettingsSchema), errors: ['ERR_PUSH_ENDPOINT_REFUSED', 'ERR_PUSH_ENDPOINT_TAKEN'] },
  'DELETE /push/subscriptions': { summary: 'Unsubscribe a browser', answers: ok(PushSettingsSchema), errors: ['ERR_NO_PUSH_SUBSCRIPTION_FOUND'] },
  // event webhooks (issue 34)
  'GET /webhooks': { summary: "The company's event webhooks (never their secrets)", answers: ok(WebhookListSchema) },
  'POST /webhooks': { summary: 'Subscribe a URL to events: the only answer that shows its signing secret', answers: created(CreatedWebhookSchema), errors: ['ERR_OUTBOUND_URL_REFUSED'] },
  'PUT /webhooks/:id': { summary: 'Change a webhook (or turn it on again)', answers: ok(WebhookSchema), errors: ['ERR_NO_WEBHOOK_FOUND', 'ERR_OUTBOUND_URL_REFUSED'] },
  'DELETE /webhooks/:id': { summary: 'Delete a webhook and its delivery log', answers: noContent('Deleted'), errors: ['ERR_NO_WEBHOOK_FOUND'] },
  'GET /webhooks/:id/deliveries': { summary: "A page of a webhook's delivery log, newest first", answers: ok(WebhookDeliveryPageSchema), errors: ['ERR_NO_WEBHOOK_FOUND'] },
  'POST /webhooks/:id/deliveries/:deliveryId/retry': {
    summary: 'Send a delivery again (queued at once)',
    answers: accepted(RetriedWebhookDeliverySchema),
    errors: ['ERR_NO_WEBHOOK_FOUND', 'ERR_NO_WEBHOOK_DELIVERY_FOUND'],
  },
  // response-time targets (issue 35)
  'GET /sla/breaches': { summary: "The caller's missed response-time targets (the bell)", answers: ok(SlaBreachListSchema) },
  'GET /dashboard/sla': { summary: 'Targets met and missed in the range, per queue, agent and day', answers: ok(SlaReportSchema) },
};
