import { z } from 'zod';
import type { ConnectionProblem } from './connection-schemas.js';
import type { AllTicket, Language, Profile } from './constants.js';
import { MessageDataSchema } from './message-data.js';
import type { PlanFlags } from './plans.js';
import { TICKET_STATUSES } from './realtime.js';
import type { PresentedScheduleEntry } from './schemas.js';

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
const idName = z.object({ id: z.number().int(), name: z.string() });

/** A queue where a ticket, a user or a connection names it. */
export const PresentedQueueSummarySchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type PresentedQueueSummary = z.output<typeof PresentedQueueSummarySchema>;

/** `GET /queue`, `GET /queue/:id` and `company-{id}-queue`. */
export interface PresentedQueue extends PresentedQueueSummary {
  orderQueue: number | null;
  greetingMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  integrationId: number | null;
  promptId: number | null;
  schedules: PresentedScheduleEntry[];
  /** The file sent with the greeting, by its name (both null when none; whaticket v6 reads `mediaPath` as "has one"). */
  mediaPath: string | null;
  mediaName: string | null;
  /** Response-time targets in minutes (issue 35); null: none. */
  slaFirstResponseMinutes: number | null;
  slaResolutionMinutes: number | null;
  slaWarnPercent: number;
  companyId: number;
  createdAt: string;
  updatedAt: string;
}

/** `company-{id}-queue`. */
export type QueueEventPayload = { action: 'create' | 'update'; queue: PresentedQueue } | { action: 'delete'; queueId: number };

/** A tag on a ticket (and what `POST /tags/sync` answers). */
export const PresentedTicketTagSchema = z.object({ id: z.number().int(), name: z.string(), color: z.string() });
export type PresentedTicketTag = z.output<typeof PresentedTicketTagSchema>;

/** `GET /tags/list` (pickers, the ticket's tag bar) and the kanban lanes (`GET /tags/kanban`'s `lista`). */
export interface PresentedTagSummary extends PresentedTicketTag {
  /** 1: the tag is a kanban lane. */
  kanban: number;
}

/** The tags page (`GET /tags`, `GET /tags/:id`) and `company-{id}-tag`. */
export interface PresentedTag extends PresentedTagSummary {
  /** Who created it (null once that user is deleted). */
  userId: number | null;
  ticketsCount: number;
  createdAt: string;
  updatedAt: string;
}

export interface PresentedTagPage {
  tags: PresentedTag[];
  hasMore: boolean;
  count: number;
}

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
export interface PresentedSticker {
  id: number;
  companyId: number;
  userId: number | null;
  name: string;
  path: string;
  mimetype: string;
  url: string;
  createdAt: string;
  updatedAt: string;
}

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
export interface PresentedTicketNote {
  id: number;
  note: string;
  ticketId: number;
  contactId: number;
  /** Null once its author is deleted (the note stays). */
  user: { id: number; name: string } | null;
  createdAt: string;
}

/**
 * A quick message. `mediaPath` is the attachment's stored file name (spec part 2 §3),
 * never where it lies on disk; `mediaUrl` is a signed, expiring link to it.
 */
export interface PresentedQuickMessage {
  id: number;
  shortcode: string;
  message: string;
  geral: boolean;
  status: boolean;
  /** Picked in the composer, the reply is put in the box to edit instead of being sent. */
  editBeforeSend: boolean;
  userId: number | null;
  isMedia: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
}

export interface PresentedQuickMessagePage {
  records: PresentedQuickMessage[];
  hasMore: boolean;
  count: number;
}

/** `company-{id}-quickMessage` (a private one reaches only its owner and the admins). */
export type QuickMessageEventPayload =
  | { action: 'create' | 'update'; quickMessage: PresentedQuickMessage }
  | { action: 'delete'; quickMessageId: number };

/** A plan as a user's company carries it: reais on the wire (the spec's shape), integer cents in the database. */
export interface PresentedPlan extends PlanFlags {
  id: number;
  name: string;
  users: number;
  connections: number;
  queues: number;
  value: number;
}

/** The signed-in user's company (`POST /auth/login`, `POST /auth/refresh_token`, `GET /auth/me`). */
export interface PresentedUserCompany {
  id: number;
  name: string;
  /** Never null: "no expiry" is `NO_EXPIRY_DUE_DATE`. */
  dueDate: string;
  status: boolean;
  /** IANA name; schedules are typed and shown in it. */
  timezone: string;
  /** The public settings (`packages/shared/src/settings.ts`). */
  settings: { key: string; value: string }[];
  plan: PresentedPlan;
}

/** A user (`GET /users`, `GET /users/list`, `company-{id}-user`); the session's answers add `company`. */
export interface PresentedUser {
  id: number;
  name: string;
  email: string;
  profile: Profile;
  super: boolean;
  allTicket: AllTicket;
  language: Language | null;
  online: boolean;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  companyId: number;
  queues: PresentedUserQueue[];
  createdAt: string;
  updatedAt: string;
  company?: PresentedUserCompany;
}

/** A user's queue; `UserQueue` is the link as whaticket v6's client reads it (its kanban). */
export interface PresentedUserQueue extends PresentedQueueSummary {
  UserQueue: { userId: number; queueId: number };
}

/** `company-{id}-user`. */
export type UserEventPayload = { action: 'create' | 'update'; user: PresentedUser } | { action: 'delete'; userId: number };

export interface PresentedUserPage {
  users: PresentedUser[];
  count: number;
  hasMore: boolean;
}

/**
 * What every user of the company sees of a connection (ticket screens name
 * connections; the side menu's badge reads statuses): `GET /whatsapp` for users who
 * may not edit connections, and `company-{id}-whatsapp`, which reaches the whole company.
 */
export interface PresentedConnection {
  id: number;
  name: string;
  status: string;
  isDefault: boolean;
  provider: string;
  /** The connected phone's number, once known. */
  number: string;
  retries: number;
  companyId: number;
  greetingMessage: string;
  complationMessage: string;
  outOfHoursMessage: string;
  ratingMessage: string;
  expiresInactiveMessage: string;
  /** The Pix key agents send from this connection's tickets, and the text sent before it. */
  pix: string;
  pixMessage: string;
  expiresTicket: number;
  timeUseBotQueues: number;
  maxUseBotQueues: number;
  timeToTransfer: number;
  transferQueueId: number | null;
  promptId: number | null;
  integrationId: number | null;
  queueIds: number[];
  queues: PresentedQueueSummary[];
  schedules: PresentedScheduleEntry[];
  /** The file sent with the greeting, by its name (both null when none). */
  greetingMediaPath: string | null;
  greetingMediaName: string | null;
  /** Why the connection needs its admin (a revoked token, a channel error), or null. */
  problem: ConnectionProblem | null;
  createdAt: string;
  updatedAt: string;
}

/** The Cloud API settings as an admin sees them: secrets masked, never whole. */
export interface PresentedCloudApiSettings {
  phoneNumberId: string;
  wabaId: string;
  verifyToken: string;
  graphApiBaseUrl: string;
  accessToken: string;
  appSecret: string;
  webhookPath: string;
}

/**
 * A connection as users allowed `connections-page:editOrDeleteConnection` get it:
 * the external API token and the Cloud API settings, and the QR code with session
 * detail (`session` absent or not `0`).
 */
export interface PresentedConnectionForAdmin extends PresentedConnection {
  token: string;
  cloudApi: PresentedCloudApiSettings | null;
  qrcode?: string;
}

/** `GET /whatsapp` and `GET /whatsapp/:id` as a client reads them without knowing its rights: the admin's fields may be absent. */
export type PresentedConnectionDetail = PresentedConnection & Partial<Omit<PresentedConnectionForAdmin, keyof PresentedConnection>>;

/** `company-{id}-whatsapp`. */
export type ConnectionEventPayload = { action: 'update'; whatsapp: PresentedConnection } | { action: 'delete'; whatsappId: number };

/** `company-{id}-whatsappSession` (admins only: it carries the QR code) and the session routes' `session`. */
export interface PresentedConnectionSession {
  id: number;
  name: string;
  status: string;
  qrcode: string;
  retries: number;
  number: string;
  provider: string;
  isDefault: boolean;
  problem: ConnectionProblem | null;
  updatedAt: string;
}

/** `company-{id}-whatsappSession`. */
export interface ConnectionSessionEventPayload {
  action: 'update';
  session: PresentedConnectionSession;
}
