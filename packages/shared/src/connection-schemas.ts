import { z } from 'zod';
import { flag, noneAsAbsent, noneId } from './conventions.js';
import { ScheduleEntry } from './schemas.js';
import { calendarDate, id, requiredText } from './validation.js';

/**
 * Connections (spec part 2 §2.2, §3 Connection, §7): the payloads of
 * `POST /whatsapp` and `PUT /whatsapp/:id`, the session statuses, and the
 * Cloud API settings. One schema serves the server and the connection dialog.
 */

/** 'beta' (the spec's default) and 'baileys' are the same provider: WhatsApp Web by QR code. */
export const CONNECTION_PROVIDERS = ['beta', 'baileys', 'cloud-api', 'sandbox'] as const;
export type ConnectionProvider = (typeof CONNECTION_PROVIDERS)[number];

/** Spec part 2 §4 and decision 5. */
export const CONNECTION_STATUSES = ['OPENING', 'qrcode', 'PAIRING', 'CONNECTED', 'TIMEOUT', 'DISCONNECTED'] as const;
export type ConnectionStatus = (typeof CONNECTION_STATUSES)[number];

/** Why a connection needs its admin: an error code (translated) and the channel's own words. */
export interface ConnectionProblem {
  code: string;
  detail?: string;
  at: string;
}

/** Spec part 2 §9: the QR dialog draws the code at 256 px. */
export const CONNECTION_QR_SIZE = 256;
/** Spec part 2 §9. */
export const DEFAULT_MAX_USE_BOT_QUEUES = 3;
/** External API bearer tokens must be hard to guess: at least this many characters. */
export const CONNECTION_TOKEN_MIN_LENGTH = 16;
/** The Cloud API's customer-service window (hours since the customer's last message). */
export const CUSTOMER_WINDOW_HOURS = 24;

const messageText = () => z.string().max(4096, 'validation.tooLong');
/** Minutes (or counts) the connection dialog sets; 0 = off. A year at most. */
const minutes = () => z.coerce.number({ error: 'validation.invalidNumber' }).int('validation.invalidNumber').min(0, 'validation.invalidNumber').max(525_600, 'validation.invalidNumber');

const token = () =>
  z
    .string()
    .trim()
    .max(200, 'validation.tooLong')
    .refine((value) => value === '' || value.length >= CONNECTION_TOKEN_MIN_LENGTH, 'validation.tooShort')
    .refine((value) => /^[\x21-\x7e]*$/.test(value), 'validation.invalidValue');

/**
 * Cloud API settings of a connection. The access token and the app secret are
 * write-only: an empty or absent value on update keeps the stored one.
 */
export const CloudApiConfigBody = z.object({
  phoneNumberId: z.string().trim().regex(/^\d{1,32}$/, 'validation.invalidNumber'),
  wabaId: z.string().trim().regex(/^\d{1,32}$/, 'validation.invalidNumber'),
  accessToken: z.string().trim().max(1000, 'validation.tooLong').optional(),
  appSecret: z.string().trim().max(200, 'validation.tooLong').optional(),
  verifyToken: z.string().trim().min(8, 'validation.tooShort').max(200, 'validation.tooLong'),
  /** Absent or empty: the server's GRAPH_API_BASE_URL. */
  graphApiBaseUrl: z.union([z.literal(''), z.url({ protocol: /^https?$/, error: 'validation.invalidValue' })]).optional(),
});
export type CloudApiConfigBody = z.infer<typeof CloudApiConfigBody>;

const connectionFields = {
  name: requiredText(2, 50),
  isDefault: flag().optional(),
  greetingMessage: messageText().optional(),
  complationMessage: messageText().optional(),
  outOfHoursMessage: messageText().optional(),
  ratingMessage: messageText().optional(),
  expiresInactiveMessage: messageText().optional(),
  /** The Pix key agents send from this connection's tickets, and the text sent before it (whaticket v6). */
  pix: z.string().trim().max(200, 'validation.tooLong').optional(),
  pixMessage: messageText().optional(),
  /**
   * External API bearer (spec part 2 §2.14), made by the server: absent or the current
   * value keeps it, empty turns the external API off, any other value asks for a new one.
   */
  token: token().optional(),
  provider: z.enum(CONNECTION_PROVIDERS, { error: 'validation.invalidValue' }),
  expiresTicket: minutes().optional(),
  timeUseBotQueues: minutes().optional(),
  maxUseBotQueues: minutes().optional(),
  timeToTransfer: minutes().optional(),
  transferQueueId: noneId().optional(),
  promptId: noneId().optional(),
  integrationId: noneId().optional(),
  /** The spec's name for integrationId; accepted as an alias. */
  integration: noneId().optional(),
  queueIds: z.array(id()).max(100).optional(),
  schedules: z.array(ScheduleEntry).max(7).optional(),
  /** Our own GET answers `cloudApi: null` for other providers; an edit sends it back. */
  cloudApi: noneAsAbsent(CloudApiConfigBody.optional()),
};

export const ConnectionCreateBody = z.object({
  ...connectionFields,
  provider: connectionFields.provider.default('beta'),
});
export type ConnectionCreateBody = z.infer<typeof ConnectionCreateBody>;

/** PUT: only the fields sent change. The provider of an existing connection cannot change. */
export const ConnectionUpdateBody = z.object({
  ...connectionFields,
  name: connectionFields.name.optional(),
  provider: connectionFields.provider.optional(),
});
export type ConnectionUpdateBody = z.infer<typeof ConnectionUpdateBody>;

/** `GET /whatsapp?session=0`: without session detail (QR code). */
export const ConnectionListQuery = z.object({
  session: z.string().max(10).optional(),
  companyId: z.string().max(20).optional(),
});

/** `POST /messages/:ticketId/template`: a Cloud API message template and its body parameters ({{1}}, {{2}}, ...). */
export const TemplateSendBody = z.object({
  name: z.string().trim().min(1, 'validation.required').max(512, 'validation.tooLong'),
  language: z.string().trim().min(2, 'validation.required').max(15, 'validation.tooLong'),
  parameters: z.array(z.string().max(1024, 'validation.tooLong')).max(20).default([]),
});
export type TemplateSendBody = z.infer<typeof TemplateSendBody>;

/** A holiday period's day: `YYYY-MM-DD`; whaticket v6's edit sends back the instant it loaded (`2024-12-24T00:00:00.000Z`), read as its date part. */
const periodDay = () => z.preprocess((value) => (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(value) ? value.slice(0, 10) : value), calendarDate());

const holidayPeriodFields = {
  startDate: periodDay(),
  endDate: periodDay(),
  /** Sent to the customer while the period lasts (empty: the connection's out-of-hours message, else the default one). */
  message: z.string().trim().max(1000, 'validation.tooLong'),
  active: flag(),
  /** The message is sent again to the same ticket after this many hours (v6's default 24); a typed value arrives as a string. */
  repeatIntervalHours: z.coerce.number({ error: 'validation.invalidValue' }).int('validation.invalidValue').min(1, 'validation.invalidValue').max(720, 'validation.invalidValue'),
};

const endNotBeforeStart = (period: { startDate?: string; endDate?: string }) => !period.startDate || !period.endDate || period.endDate >= period.startDate;
const END_BEFORE_START = { message: 'validation.endBeforeStart', path: ['endDate'] };

/** `POST /whatsapp/:id/holiday-periods` (whaticket v6): days the connection is closed. */
export const HolidayPeriodBody = z
  .object({
    ...holidayPeriodFields,
    message: holidayPeriodFields.message.default(''),
    active: holidayPeriodFields.active.default(true),
    repeatIntervalHours: holidayPeriodFields.repeatIntervalHours.default(24),
  })
  .refine(endNotBeforeStart, END_BEFORE_START);
export type HolidayPeriodBody = z.infer<typeof HolidayPeriodBody>;

/** `PUT .../holiday-periods/:id`: a field left out keeps its value (v6's switch sends the whole record back). */
export const HolidayPeriodUpdateBody = z.object(holidayPeriodFields).partial().refine(endNotBeforeStart, END_BEFORE_START);
export type HolidayPeriodUpdateBody = z.infer<typeof HolidayPeriodUpdateBody>;

/** A holiday period as answered. */
export const PresentedHolidayPeriodSchema = z.object({
  id: z.number().int(),
  whatsappId: z.number().int(),
  companyId: z.number().int(),
  startDate: z.string().describe('YYYY-MM-DD'),
  endDate: z.string().describe('YYYY-MM-DD'),
  message: z.string(),
  active: z.boolean(),
  repeatIntervalHours: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedHolidayPeriod = z.output<typeof PresentedHolidayPeriodSchema>;

/** One of a Cloud API connection's message templates, as the composer lists it (`GET /whatsapp/:id/templates`). */
export const PresentedMessageTemplateSchema = z.object({
  name: z.string(),
  language: z.string(),
  status: z.string(),
  category: z.string().nullable(),
  body: z.string(),
  /** How many `{{n}}` parameters its body has. */
  parameters: z.number().int(),
});
export type PresentedMessageTemplate = z.output<typeof PresentedMessageTemplateSchema>;

/** A ticket's 24-hour customer window (`GET /messages/:ticketId/window`): only Cloud API connections have one (`required` false). */
export const PresentedTicketWindowSchema = z.object({ required: z.boolean(), open: z.boolean(), expiresAt: z.string().nullable() });
export type PresentedTicketWindow = z.output<typeof PresentedTicketWindowSchema>;
