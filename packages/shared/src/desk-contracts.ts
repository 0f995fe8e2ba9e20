import { z } from 'zod';
import { AUTO_ASSIGN_MODES } from './auto-assign-schemas.js';
import { ALL_TICKET_VALUES, LANGUAGES, PROFILES } from './constants.js';
import { MessageDataSchema } from './message-data.js';
import { PLAN_FEATURES, type PlanFeature } from './plans.js';
import { TICKET_STATUSES } from './realtime.js';

/**
 * What the service-desk routes and their realtime events answer (spec part 1 §3, §7):
 * tickets, messages, contacts, tags, notes, quick messages, queues, users and
 * connections. The server's presenters are typed with these, and the web reads the
 * answers as these, so a change on one side that the other does not follow fails to
 * compile. Dates are ISO 8601 strings.
 *
 * The answers integrators read most (tickets, messages, contacts) are zod schemas,
 * their types derived from them: the OpenAPI document (`GET /openapi.json`) shows
 * them through the route answer table (`route-answers.ts`), and its test checks real
 * answers against them. The rest are still TypeScript interfaces.
 */

/** A ticket's mark against its response-time target (issue 35). */
const SLA_STATES = ['ok', 'warning', 'breached'] as const;

const isoDate = z.string().describe('ISO 8601 date and time');
const int = () => z.number().int();
const idName = z.object({ id: int(), name: z.string() });

/** A weekday's business hours as answered (`presentSchedules`, schemas.ts): `HH:mm` or `''`, the first interval under v6's names too. */
export const PresentedScheduleEntrySchema = z.object({
  weekday: z.string(),
  weekdayEn: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  startTimeA: z.string(),
  endTimeA: z.string(),
  startTimeB: z.string(),
  endTimeB: z.string(),
});

/** Why a connection needs its admin (a revoked token, a channel error). */
export const ConnectionProblemSchema = z.object({ code: z.string(), detail: z.string().optional(), at: isoDate });

/** The plan flags (`PLAN_FEATURES`), each a boolean. */
const planFlags = z.object(Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, z.boolean()])) as Record<PlanFeature, z.ZodBoolean>);

/** A queue where a ticket, a user or a connection names it. */
export const PresentedQueueSummarySchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type PresentedQueueSummary = z.output<typeof PresentedQueueSummarySchema>;

/** `GET /queue`, `GET /queue/:id` and `company-{id}-queue`. */
export const PresentedQueueSchema = PresentedQueueSummarySchema.extend({
  orderQueue: int().nullable(),
  greetingMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  integrationId: int().nullable(),
  promptId: int().nullable(),
  schedules: z.array(PresentedScheduleEntrySchema),
  /** The file sent with the greeting, by its name (both null when none; whaticket v6 reads `mediaPath` as "has one"). */
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  /** Auto-assignment (issue 35). */
  autoAssign: z.enum(AUTO_ASSIGN_MODES),
  defaultMaxOpenTickets: int(),
  /** Response-time targets in minutes (issue 35); null: none. */
  slaFirstResponseMinutes: int().nullable(),
  slaResolutionMinutes: int().nullable(),
  slaWarnPercent: int(),
  companyId: int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedQueue = z.output<typeof PresentedQueueSchema>;

/** `company-{id}-queue`. */
export type QueueEventPayload = { action: 'create' | 'update'; queue: PresentedQueue } | { action: 'delete'; queueId: number };

/** A tag on a ticket (and what `POST /tags/sync` answers). */
export const PresentedTicketTagSchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type PresentedTicketTag = z.output<typeof PresentedTicketTagSchema>;

/** `GET /tags/list` (pickers, the ticket's tag bar) and the kanban lanes (`GET /tags/kanban`'s `lista`). */
export const PresentedTagSummarySchema = PresentedTicketTagSchema.extend({
  /** 1: the tag is a kanban lane. */
  kanban: int(),
});
export type PresentedTagSummary = z.output<typeof PresentedTagSummarySchema>;

/** The tags page (`GET /tags`, `GET /tags/:id`) and `company-{id}-tag`. */
export const PresentedTagSchema = PresentedTagSummarySchema.extend({
  /** Who created it (null once that user is deleted). */
  userId: int().nullable(),
  ticketsCount: int(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedTag = z.output<typeof PresentedTagSchema>;

export const PresentedTagPageSchema = z.object({ tags: z.array(PresentedTagSchema), hasMore: z.boolean(), count: int() });
export type PresentedTagPage = z.output<typeof PresentedTagPageSchema>;

/** `company-{id}-tag`. */
export type TagEventPayload = { action: 'create' | 'update'; tag: PresentedTag } | { action: 'delete'; tagId: number };

/** The contact a ticket carries. */
export const PresentedTicketContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  email: z.string(),
});
export type PresentedTicketContact = z.output<typeof PresentedTicketContactSchema>;


export const PresentedTicketUserSchema = z.object({
  ticketId: z.number().int(),
  userId: z.number().int(),
  queueId: z.number().int().nullable(),
  user: idName,
  queue: PresentedQueueSummarySchema.nullable(),
});
export type PresentedTicketUser = z.output<typeof PresentedTicketUserSchema>;

/** A ticket (`GET /tickets/:id`, the lists, `company-{id}-ticket`, the 409 of a lost race). */
export const PresentedTicketSchema = z.object({
  id: z.number().int(),
  uuid: z.string(),
  status: z.enum(TICKET_STATUSES),
  userId: z.number().int().nullable(),
  user: idName.nullable(),
  queueId: z.number().int().nullable(),
  queue: PresentedQueueSummarySchema.nullable(),
  whatsappId: z.number().int().nullable(),
  /** `pix`, `pixMessage`: the connection's Pix key and the text sent before it (whaticket v6's Pix button). */
  whatsapp: z.object({ id: z.number().int(), name: z.string(), status: z.string(), provider: z.string(), pix: z.string(), pixMessage: z.string() }).nullable(),
  contactId: z.number().int(),
  contact: PresentedTicketContactSchema,
  isGroup: z.boolean(),
  chatbot: z.boolean(),
  unreadMessages: z.number().int(),
  lastMessage: z.string(),
  useIntegration: z.boolean(),
  promptId: z.number().int().nullable(),
  integrationId: z.number().int().nullable(),
  tags: z.array(PresentedTicketTagSchema),
  /**
   * The agents on the ticket as whaticket v6's client reads them: Atende has one, the
   * assignee (an empty list while nobody has it).
   */
  ticketUsers: z.array(PresentedTicketUserSchema),
  companyId: z.number().int(),
  /** The protocol number shown to customers ({{protocol}}): the ticket id. */
  code: z.string(),
  /**
   * The next response-time target still running (issue 35: first response until an agent answers, then
   * resolution), when it turns to 'warning' and its state when the answer was made; all null without one.
   */
  slaDueAt: isoDate.nullable(),
  slaWarnAt: isoDate.nullable(),
  slaState: z.enum(SLA_STATES).nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedTicket = z.output<typeof PresentedTicketSchema>;

/** `company-{id}-ticket`. */
export type TicketEventPayload =
  | { action: 'update'; ticket: PresentedTicket }
  /** `moved`: the ticket still exists but changed status, assignee or queue; an `update` with it follows. */
  | { action: 'delete'; ticketId: number; moved?: true }
  | { action: 'updateUnread'; ticketId: number };

/** `GET /tickets`: a page of the list. */
export const PresentedTicketPageSchema = z.object({ tickets: z.array(PresentedTicketSchema), hasMore: z.boolean() });
export type PresentedTicketPage = z.output<typeof PresentedTicketPageSchema>;

/** Who produced a message: the customer, an agent, the phone itself, the bot or the system (decision 9). */
export const MESSAGE_SOURCES = ['customer', 'agent', 'phone', 'bot', 'system'] as const;
export type MessageSource = (typeof MESSAGE_SOURCES)[number];

/** What a message quotes, as the message carries it. */
export const PresentedQuotedMessageSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  fromMe: z.boolean(),
  mediaType: z.string().nullable(),
  isDeleted: z.boolean(),
  contact: z.object({ name: z.string() }),
});
export type PresentedQuotedMessage = z.output<typeof PresentedQuotedMessageSchema>;

/** A message (`GET /messages/:ticketId`, the sends, `company-{id}-appMessage`). */
export const PresentedMessageSchema = z.object({
  id: z.number().int(),
  ticketId: z.number().int(),
  contactId: z.number().int(),
  userId: z.number().int().nullable(),
  /** Empty once deleted. */
  body: z.string(),
  fromMe: z.boolean(),
  source: z.enum(MESSAGE_SOURCES),
  ack: z.number().int(),
  read: z.boolean(),
  /** `chat` for text (whaticket's name: its client renders a quoted text only with it), `image`, `audio`, `video`, `application`, `locationMessage`, `vcard`, `contactMessage`, `call_log`, ... */
  mediaType: z.string().nullable(),
  /** A signed, expiring link to the file; null without one and once deleted. */
  mediaUrl: z.string().nullable(),
  mediaName: z.string().nullable(),
  isDeleted: z.boolean(),
  isEdited: z.boolean(),
  senderName: z.string().nullable(),
  /** Outgoing messages: 'pending' until the channel answers, then 'sent' or 'failed' (`sendError` is the error code); null otherwise. */
  sendStatus: z.enum(['pending', 'sent', 'failed']).nullable(),
  sendError: z.string().nullable(),
  /** What the channel gave beyond text and file (issue 19): reactions, order, referral, media state, ...; null when nothing. */
  dataJson: MessageDataSchema.nullable(),
  contact: idName,
  quotedMsgId: z.number().int().nullable(),
  quotedMsg: PresentedQuotedMessageSchema.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedMessage = z.output<typeof PresentedMessageSchema>;

/** `GET /messages/:ticketId`: a page of the conversation (oldest first) and its ticket. */
export const PresentedMessagePageSchema = z.object({ messages: z.array(PresentedMessageSchema), ticket: PresentedTicketSchema, hasMore: z.boolean() });
export type PresentedMessagePage = z.output<typeof PresentedMessagePageSchema>;

/** `company-{id}-appMessage`: a message stored (`create`, also when announced again) or changed (`update`), with its ticket. */
export interface AppMessageEventPayload {
  action: 'create' | 'update';
  message: PresentedMessage;
  ticket: PresentedTicket;
  contact: PresentedTicketContact;
}

/** A saved sticker (`GET /stickers`, whaticket v6's shape plus `url`, its signed image link); `userId` null: the company's. */
export const PresentedStickerSchema = z.object({
  id: int(),
  companyId: int(),
  userId: int().nullable(),
  name: z.string(),
  path: z.string(),
  mimetype: z.string(),
  url: z.string(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedSticker = z.output<typeof PresentedStickerSchema>;

export const PresentedExtraInfoSchema = z.object({ id: z.number().int(), name: z.string(), value: z.string() });
export type PresentedExtraInfo = z.output<typeof PresentedExtraInfoSchema>;

/** A contact (`GET /contacts`, `GET /contacts/:id`, `company-{id}-contact`). */
export const PresentedContactSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  number: z.string(),
  email: z.string(),
  profilePicUrl: z.string(),
  isGroup: z.boolean(),
  /** The connection the contact first wrote through. */
  whatsappId: z.number().int().nullable(),
  extraInfo: z.array(PresentedExtraInfoSchema),
  /** `YYYY-MM-DD`, or null. */
  birthday: z.string().nullable(),
  /** The chatbot, integrations and AI prompts never answer this contact. */
  disableBot: z.boolean(),
  active: z.boolean(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedContact = z.output<typeof PresentedContactSchema>;

/** `POST /contacts` for a number the company has already: that contact, as whaticket v6 answers (200). */
export const ExistingContactAnswerSchema = z.object({ alreadyExists: z.literal(true), existingContact: PresentedContactSchema });
export type ExistingContactAnswer = z.output<typeof ExistingContactAnswerSchema>;

export const PresentedContactPageSchema = z.object({ contacts: z.array(PresentedContactSchema), hasMore: z.boolean(), count: z.number().int() });
export type PresentedContactPage = z.output<typeof PresentedContactPageSchema>;

/** `GET /contacts/list`: every contact of the company, for pickers. */
export const PresentedContactSummarySchema = z.object({ id: z.number().int(), name: z.string(), number: z.string(), email: z.string() });
export type PresentedContactSummary = z.output<typeof PresentedContactSummarySchema>;

/** `POST /contacts/upload` and `POST /contacts/import`. `message` is an error code (ERR_DUPLICATED_CONTACT) or an English sentence. */
export const ContactImportResultSchema = z.object({
  newContacts: z.array(z.object({ contactId: z.number().int(), contactName: z.string() })),
  errorBag: z.array(
    z.object({
      contactName: z.string(),
      /** `fields`: per invalid column, the validation key (`validation.tooShort`, ...) a client translates. */
      error: z.object({
        message: z.string(),
        code: z.enum(['ERR_DUPLICATED_CONTACT', 'ERR_VALIDATION', 'ERR_WAPP_NOT_INITIALIZED']),
        fields: z.record(z.string(), z.string()).optional(),
      }),
    }),
  ),
});
export type ContactImportResult = z.output<typeof ContactImportResultSchema>;

/** `company-{id}-contact`: created and edited contacts are both `update`. */
export type ContactEventPayload = { action: 'create' | 'update'; contact: PresentedContact } | { action: 'delete'; contactId: number };

/** A note on a contact (`GET /ticket-notes/list`, `POST /ticket-notes`). */
export const PresentedTicketNoteSchema = z.object({
  id: int(),
  note: z.string(),
  ticketId: int(),
  contactId: int(),
  /** Null once its author is deleted (the note stays). */
  user: idName.nullable(),
  createdAt: isoDate,
});
export type PresentedTicketNote = z.output<typeof PresentedTicketNoteSchema>;

/**
 * A quick message. `mediaPath` is the attachment's stored file name (spec part 2 §3),
 * never where it lies on disk; `mediaUrl` is a signed, expiring link to it.
 */
export const PresentedQuickMessageSchema = z.object({
  id: int(),
  shortcode: z.string(),
  message: z.string(),
  geral: z.boolean(),
  status: z.boolean(),
  /** Picked in the composer, the reply is put in the box to edit instead of being sent. */
  editBeforeSend: z.boolean(),
  userId: int().nullable(),
  isMedia: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
});
export type PresentedQuickMessage = z.output<typeof PresentedQuickMessageSchema>;

export const PresentedQuickMessagePageSchema = z.object({ records: z.array(PresentedQuickMessageSchema), hasMore: z.boolean(), count: int() });
export type PresentedQuickMessagePage = z.output<typeof PresentedQuickMessagePageSchema>;

/** `company-{id}-quickMessage` (a private one reaches only its owner and the admins). */
export type QuickMessageEventPayload =
  | { action: 'create' | 'update'; quickMessage: PresentedQuickMessage }
  | { action: 'delete'; quickMessageId: number };

/** A plan as a user's company carries it: reais on the wire (the spec's shape), integer cents in the database. */
export const PresentedPlanSchema = planFlags.extend({
  id: int(),
  name: z.string(),
  users: int(),
  connections: int(),
  queues: int(),
  value: z.number(),
});
export type PresentedPlan = z.output<typeof PresentedPlanSchema>;

/** The signed-in user's company (`POST /auth/login`, `POST /auth/refresh_token`, `GET /auth/me`). */
export const PresentedUserCompanySchema = z.object({
  id: int(),
  name: z.string(),
  /** Never null: "no expiry" is `NO_EXPIRY_DUE_DATE`. */
  dueDate: z.string(),
  status: z.boolean(),
  /** IANA name; schedules are typed and shown in it. */
  timezone: z.string(),
  /** The public settings (`packages/shared/src/settings.ts`). */
  settings: z.array(z.object({ key: z.string(), value: z.string() })),
  plan: PresentedPlanSchema,
});
export type PresentedUserCompany = z.output<typeof PresentedUserCompanySchema>;

/** A user's queue; `UserQueue` is the link as whaticket v6's client reads it (its kanban). */
export const PresentedUserQueueSchema = PresentedQueueSummarySchema.extend({ UserQueue: z.object({ userId: int(), queueId: int() }) });
export type PresentedUserQueue = z.output<typeof PresentedUserQueueSchema>;

/** A user (`GET /users`, `GET /users/list`, `company-{id}-user`); the session's answers add `company`. */
export const PresentedUserSchema = z.object({
  id: int(),
  name: z.string(),
  email: z.string(),
  profile: z.enum(PROFILES),
  super: z.boolean(),
  allTicket: z.enum(ALL_TICKET_VALUES),
  language: z.enum(LANGUAGES).nullable(),
  online: z.boolean(),
  whatsappId: int().nullable(),
  whatsapp: idName.nullable(),
  /** Auto-assignment's capacity (issue 35); null: each queue's default. */
  maxOpenTickets: int().nullable(),
  companyId: int(),
  queues: z.array(PresentedUserQueueSchema),
  createdAt: isoDate,
  updatedAt: isoDate,
  company: PresentedUserCompanySchema.optional(),
});
export type PresentedUser = z.output<typeof PresentedUserSchema>;

/** `company-{id}-user`. */
export type UserEventPayload = { action: 'create' | 'update'; user: PresentedUser } | { action: 'delete'; userId: number };

export const PresentedUserPageSchema = z.object({ users: z.array(PresentedUserSchema), count: int(), hasMore: z.boolean() });
export type PresentedUserPage = z.output<typeof PresentedUserPageSchema>;

/**
 * What every user of the company sees of a connection (ticket screens name
 * connections; the side menu's badge reads statuses): `GET /whatsapp` for users who
 * may not edit connections, and `company-{id}-whatsapp`, which reaches the whole company.
 */
export const PresentedConnectionSchema = z.object({
  id: int(),
  name: z.string(),
  status: z.string(),
  isDefault: z.boolean(),
  provider: z.string(),
  /** The connected phone's number, once known. */
  number: z.string(),
  retries: int(),
  companyId: int(),
  greetingMessage: z.string(),
  complationMessage: z.string(),
  outOfHoursMessage: z.string(),
  ratingMessage: z.string(),
  expiresInactiveMessage: z.string(),
  /** The Pix key agents send from this connection's tickets, and the text sent before it. */
  pix: z.string(),
  pixMessage: z.string(),
  expiresTicket: int(),
  timeUseBotQueues: int(),
  maxUseBotQueues: int(),
  timeToTransfer: int(),
  transferQueueId: int().nullable(),
  promptId: int().nullable(),
  integrationId: int().nullable(),
  queueIds: z.array(int()),
  queues: z.array(PresentedQueueSummarySchema),
  schedules: z.array(PresentedScheduleEntrySchema),
  /** The file sent with the greeting, by its name (both null when none). */
  greetingMediaPath: z.string().nullable(),
  greetingMediaName: z.string().nullable(),
  /** Why the connection needs its admin (a revoked token, a channel error), or null. */
  problem: ConnectionProblemSchema.nullable(),
  createdAt: isoDate,
  updatedAt: isoDate,
});
export type PresentedConnection = z.output<typeof PresentedConnectionSchema>;

/** The Cloud API settings as an admin sees them: secrets masked, never whole. */
export const PresentedCloudApiSettingsSchema = z.object({
  phoneNumberId: z.string(),
  wabaId: z.string(),
  verifyToken: z.string(),
  graphApiBaseUrl: z.string(),
  accessToken: z.string(),
  appSecret: z.string(),
  webhookPath: z.string(),
});
export type PresentedCloudApiSettings = z.output<typeof PresentedCloudApiSettingsSchema>;

const adminConnectionFields = {
  token: z.string(),
  cloudApi: PresentedCloudApiSettingsSchema.nullable(),
  qrcode: z.string().optional(),
};

/**
 * A connection as users allowed `connections-page:editOrDeleteConnection` get it:
 * the external API token and the Cloud API settings, and the QR code with session
 * detail (`session` absent or not `0`).
 */
export const PresentedConnectionForAdminSchema = PresentedConnectionSchema.extend(adminConnectionFields);
export type PresentedConnectionForAdmin = z.output<typeof PresentedConnectionForAdminSchema>;

/** `GET /whatsapp` and `GET /whatsapp/:id` as a client reads them without knowing its rights: the admin's fields may be absent. */
export const PresentedConnectionDetailSchema = PresentedConnectionSchema.extend({
  token: adminConnectionFields.token.optional(),
  cloudApi: adminConnectionFields.cloudApi.optional(),
  qrcode: adminConnectionFields.qrcode,
});
export type PresentedConnectionDetail = z.output<typeof PresentedConnectionDetailSchema>;

/** `company-{id}-whatsapp`. */
export type ConnectionEventPayload = { action: 'update'; whatsapp: PresentedConnection } | { action: 'delete'; whatsappId: number };

/** `company-{id}-whatsappSession` (admins only: it carries the QR code) and the session routes' `session`. */
export const PresentedConnectionSessionSchema = z.object({
  id: int(),
  name: z.string(),
  status: z.string(),
  qrcode: z.string(),
  retries: int(),
  number: z.string(),
  provider: z.string(),
  isDefault: z.boolean(),
  problem: ConnectionProblemSchema.nullable(),
  updatedAt: isoDate,
});
export type PresentedConnectionSession = z.output<typeof PresentedConnectionSessionSchema>;

/** `company-{id}-whatsappSession`. */
export interface ConnectionSessionEventPayload {
  action: 'update';
  session: PresentedConnectionSession;
}
