import { z } from 'zod';
import { noneAsAbsent, noneId } from './conventions.js';
import { autoAssignQueueFields, DEFAULT_MAX_OPEN_TICKETS } from './auto-assign-schemas.js';
import { ScheduleEntry } from './schemas.js';
import { id, requiredText } from './validation.js';

/**
 * Payloads of the automation screens (spec part 2 §2.3, §2.12, §2.13, §5, §9):
 * queues and their option trees, AI prompts and third-party bot integrations.
 * One schema serves the server and the web forms.
 */

export const PROMPT_MODELS = ['gpt-3.5-turbo-1106', 'gpt-4o-mini'] as const;
export type PromptModel = (typeof PROMPT_MODELS)[number];
/** Spec part 2 §9. */
export const PROMPT_DEFAULTS = { model: 'gpt-3.5-turbo-1106', maxTokens: 100, temperature: 1, maxMessages: 10 } as const;

export const INTEGRATION_TYPES = ['dialogflow', 'n8n', 'webhook', 'typebot'] as const;
export type IntegrationType = (typeof INTEGRATION_TYPES)[number];
export const DIALOGFLOW_LANGUAGES = ['pt-BR', 'en', 'es'] as const;
/** Spec part 2 §9: delay between messages in milliseconds, session expiry in minutes. */
export const TYPEBOT_DEFAULTS = { typebotDelayMessage: 1000, typebotExpires: 1 } as const;

/** Rating scale (spec part 1 §9): 1 unsatisfied, 2 satisfied, 3 very satisfied. */
export const RATING_VALUES = [1, 2, 3] as const;

const TEXT_MAX = 4096;
const text = () => z.string().max(TEXT_MAX, 'validation.tooLong');
const count = (min: number, max: number) =>
  z.coerce.number({ error: 'validation.invalidNumber' }).int('validation.invalidNumber').min(min, 'validation.invalidNumber').max(max, 'validation.invalidNumber');

// ---------------------------------------------------------------- queues

const color = () =>
  z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').min(3, 'validation.tooShort').max(9, 'validation.tooLong');
// null and '' first: a coerced number would read both as 0.
const orderQueue = () => z.union([z.null(), z.literal('').transform(() => null), count(0, 100_000)]);

/** The longest SLA target: 90 days of minutes. */
const SLA_MAX_MINUTES = 90 * 24 * 60;
/** Default share of a target after which a ticket is marked as near its breach. */
export const SLA_DEFAULT_WARN_PERCENT = 80;
// null, '' and 0 clear a target first: a coerced number would read null and '' as 0.
const slaMinutes = () => z.union([z.null(), z.literal('').transform(() => null), z.literal(0).transform(() => null), count(1, SLA_MAX_MINUTES)]);

/** Response-time targets (issue 35), in minutes of the queue's business hours; absent: unchanged (an update) or none. */
const QueueSlaFields = {
  slaFirstResponseMinutes: slaMinutes().optional(),
  slaResolutionMinutes: slaMinutes().optional(),
  slaWarnPercent: count(1, 99).optional(),
};

/** Queue modal (spec part 2 §5): name 2–50, colour 3–9 (unique per company), the rest free. */
export const QueueBody = z.object({
  name: requiredText(2, 50),
  color: color(),
  orderQueue: orderQueue().optional(),
  greetingMessage: text().optional().default(''),
  outOfHoursMessage: text().optional().default(''),
  ratingMessage: text().optional().default(''),
  integrationId: noneId().optional(),
  promptId: noneId().optional(),
  /** Attendance hours, used when the setting scheduleType is `queue`. */
  schedules: z.array(ScheduleEntry).max(7).optional(),
  // Auto-assignment (issue 35).
  autoAssign: autoAssignQueueFields.autoAssign.optional().default('off'),
  defaultMaxOpenTickets: autoAssignQueueFields.defaultMaxOpenTickets.optional().default(DEFAULT_MAX_OPEN_TICKETS),
  ...QueueSlaFields,
});
export type QueueBody = z.infer<typeof QueueBody>;

/** PUT: only the fields sent change. */
export const QueueUpdateBody = z.object({
  name: requiredText(2, 50).optional(),
  color: color().optional(),
  orderQueue: orderQueue().optional(),
  greetingMessage: text().optional(),
  outOfHoursMessage: text().optional(),
  ratingMessage: text().optional(),
  integrationId: noneId().optional(),
  promptId: noneId().optional(),
  schedules: z.array(ScheduleEntry).max(7).optional(),
  // Auto-assignment (issue 35).
  autoAssign: autoAssignQueueFields.autoAssign.optional(),
  defaultMaxOpenTickets: autoAssignQueueFields.defaultMaxOpenTickets.optional(),
  ...QueueSlaFields,
});
export type QueueUpdateBody = z.infer<typeof QueueUpdateBody>;

// ---------------------------------------------------------------- queue options

/** What the customer types to choose an option: digits, at most 3 ('0' and '#' are reserved for back and main menu). */
const optionKey = () =>
  z
    .union([z.string(), z.number()])
    .transform((value) => String(value).trim())
    .pipe(z.string().min(1, 'validation.required').max(3, 'validation.tooLong').regex(/^[1-9]\d{0,2}$/, 'validation.invalidNumber'));

/** A root option has parentId null (or -1, as the list query spells roots). */
const parentId = () => z.union([noneId(), z.literal(-1).transform(() => null), z.literal('-1').transform(() => null)]);

export const QueueOptionBody = z.object({
  queueId: id(),
  parentId: parentId().optional(),
  title: requiredText(1, 100),
  message: text().optional().default(''),
  /** Position typed by the customer; absent = the next free number among its siblings. */
  option: optionKey().optional(),
});
export type QueueOptionBody = z.infer<typeof QueueOptionBody>;

export const QueueOptionUpdateBody = z.object({
  title: requiredText(1, 100).optional(),
  message: text().optional(),
  option: optionKey().optional(),
});
export type QueueOptionUpdateBody = z.infer<typeof QueueOptionUpdateBody>;

/** `parentId=-1` (or absent) lists the roots of the queue's tree. */
export const QueueOptionListQuery = z.object({
  queueId: id(),
  parentId: z.coerce.number().int().min(-1).max(2_147_483_647).optional(),
});
export type QueueOptionListQuery = z.infer<typeof QueueOptionListQuery>;

// ---------------------------------------------------------------- prompts

const promptFields = {
  name: requiredText(5, 100),
  prompt: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').min(50, 'validation.tooShort').max(20_000, 'validation.tooLong'),
  model: z.enum(PROMPT_MODELS, { error: 'validation.invalidValue' }),
  maxTokens: count(1, 16_384),
  temperature: z.coerce.number({ error: 'validation.invalidNumber' }).min(0, 'validation.invalidNumber').max(1, 'validation.invalidNumber'),
  maxMessages: count(1, 100),
  apiKey: z.string({ error: 'validation.required' }).trim().min(1, 'validation.required').max(500, 'validation.tooLong'),
  /** The sector (queue) a handover moves the ticket to: required (spec part 2 §5). */
  queueId: id(),
};

/** Prompt dialog (spec part 2 §5, defaults §9). */
export const PromptBody = z.object({
  ...promptFields,
  model: promptFields.model.default(PROMPT_DEFAULTS.model),
  maxTokens: promptFields.maxTokens.default(PROMPT_DEFAULTS.maxTokens),
  temperature: promptFields.temperature.default(PROMPT_DEFAULTS.temperature),
  maxMessages: promptFields.maxMessages.default(PROMPT_DEFAULTS.maxMessages),
});
export type PromptBody = z.infer<typeof PromptBody>;

/** PUT: only the fields sent change; an `apiKey` equal to the masked value shown keeps the stored key. */
export const PromptUpdateBody = z.object({
  name: promptFields.name.optional(),
  prompt: promptFields.prompt.optional(),
  model: promptFields.model.optional(),
  maxTokens: promptFields.maxTokens.optional(),
  temperature: promptFields.temperature.optional(),
  maxMessages: promptFields.maxMessages.optional(),
  apiKey: promptFields.apiKey.optional(),
  queueId: promptFields.queueId.optional(),
});
export type PromptUpdateBody = z.infer<typeof PromptUpdateBody>;

// ---------------------------------------------------------------- integrations

const httpUrl = () =>
  z
    .string()
    .trim()
    .max(2000, 'validation.tooLong')
    .refine((value) => value === '' || /^https?:\/\/[^\s]+$/i.test(value), 'validation.invalidValue');

const integrationFields = {
  type: z.enum(INTEGRATION_TYPES, { error: 'validation.invalidValue' }),
  name: requiredText(2, 50),
  /** Dialogflow: the Google Cloud project id. n8n, webhook, typebot: set to the name on save. */
  projectName: z.string().trim().max(100, 'validation.tooLong'),
  /** Dialogflow service-account key (JSON); stored encrypted, shown masked. */
  jsonContent: z.string().max(20_000, 'validation.tooLong'),
  language: z.enum(DIALOGFLOW_LANGUAGES, { error: 'validation.invalidValue' }),
  /** n8n and webhook: the URL called; typebot: the Typebot viewer's base URL. */
  urlN8N: httpUrl(),
  typebotSlug: z.string().trim().max(200, 'validation.tooLong'),
  typebotExpires: count(0, 100_000),
  typebotDelayMessage: count(0, 60_000),
  typebotKeywordFinish: z.string().trim().max(100, 'validation.tooLong'),
  typebotKeywordRestart: z.string().trim().max(100, 'validation.tooLong'),
  typebotUnknownMessage: text(),
  typebotRestartMessage: text(),
  /** n8n and webhook: HMAC-SHA256 key of the signature header; generated (and shown once) when absent. */
  signingSecret: z.string().trim().min(16, 'validation.tooShort').max(200, 'validation.tooLong'),
};

/** What each type needs (spec part 2 §5): typebot needs url and slug; n8n and webhook a url; dialogflow a project and its key. */
export function integrationRequiredFields(type: IntegrationType): ('urlN8N' | 'typebotSlug' | 'projectName' | 'jsonContent')[] {
  switch (type) {
    case 'typebot':
      return ['urlN8N', 'typebotSlug'];
    case 'n8n':
    case 'webhook':
      return ['urlN8N'];
    case 'dialogflow':
      return ['projectName', 'jsonContent'];
  }
}

export const IntegrationBody = z
  .object({
    type: integrationFields.type,
    name: integrationFields.name,
    projectName: integrationFields.projectName.optional().default(''),
    jsonContent: integrationFields.jsonContent.optional().default(''),
    /** Other types than dialogflow send `language: ''`. */
    language: noneAsAbsent(integrationFields.language.optional().default('pt-BR')),
    urlN8N: integrationFields.urlN8N.optional().default(''),
    typebotSlug: integrationFields.typebotSlug.optional().default(''),
    typebotExpires: integrationFields.typebotExpires.optional().default(TYPEBOT_DEFAULTS.typebotExpires),
    typebotDelayMessage: integrationFields.typebotDelayMessage.optional().default(TYPEBOT_DEFAULTS.typebotDelayMessage),
    typebotKeywordFinish: integrationFields.typebotKeywordFinish.optional().default(''),
    typebotKeywordRestart: integrationFields.typebotKeywordRestart.optional().default(''),
    typebotUnknownMessage: integrationFields.typebotUnknownMessage.optional().default(''),
    typebotRestartMessage: integrationFields.typebotRestartMessage.optional().default(''),
    signingSecret: integrationFields.signingSecret.optional(),
  })
  .superRefine((value, context) => {
    for (const field of integrationRequiredFields(value.type)) {
      if (!value[field].trim()) context.addIssue({ code: 'custom', path: [field], message: 'validation.required' });
    }
  });
export type IntegrationBody = z.infer<typeof IntegrationBody>;

/** PUT: only the fields sent change (the server checks the merged record); masked secrets sent back unchanged are kept. */
export const IntegrationUpdateBody = z.object({
  type: integrationFields.type.optional(),
  name: integrationFields.name.optional(),
  projectName: integrationFields.projectName.optional(),
  jsonContent: integrationFields.jsonContent.optional(),
  language: noneAsAbsent(integrationFields.language.optional()),
  urlN8N: integrationFields.urlN8N.optional(),
  typebotSlug: integrationFields.typebotSlug.optional(),
  typebotExpires: integrationFields.typebotExpires.optional(),
  typebotDelayMessage: integrationFields.typebotDelayMessage.optional(),
  typebotKeywordFinish: integrationFields.typebotKeywordFinish.optional(),
  typebotKeywordRestart: integrationFields.typebotKeywordRestart.optional(),
  typebotUnknownMessage: integrationFields.typebotUnknownMessage.optional(),
  typebotRestartMessage: integrationFields.typebotRestartMessage.optional(),
  /** The masked value shown is shorter than a secret: the length is checked only when the secret changes. */
  signingSecret: z.string().trim().max(200, 'validation.tooLong').optional(),
});
export type IntegrationUpdateBody = z.infer<typeof IntegrationUpdateBody>;

/**
 * The dialogflow dialog's test-session action. `id` lets an edit dialog test the
 * stored key: a masked (or empty) jsonContent then means "the saved one".
 */
export const IntegrationTestSessionBody = z.object({
  id: id().optional(),
  projectName: z.string().trim().min(1, 'validation.required').max(100, 'validation.tooLong'),
  jsonContent: integrationFields.jsonContent.optional().default(''),
  language: noneAsAbsent(integrationFields.language.optional().default('pt-BR')),
});
export type IntegrationTestSessionBody = z.infer<typeof IntegrationTestSessionBody>;

/** An AI prompt as answered: its API key masked. */
export const PresentedPromptSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  prompt: z.string(),
  model: z.string(),
  maxTokens: z.number().int(),
  temperature: z.number(),
  maxMessages: z.number().int(),
  apiKey: z.string().describe('Masked'),
  queueId: z.number().int().nullable(),
  queue: z.object({ id: z.number().int(), name: z.string() }).nullable(),
  companyId: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedPrompt = z.output<typeof PresentedPromptSchema>;

/** A queue integration as answered: the Dialogflow key and the webhook signing secret masked (whole once, on creation). */
export const PresentedIntegrationSchema = z.object({
  id: z.number().int(),
  type: z.enum(INTEGRATION_TYPES),
  name: z.string(),
  projectName: z.string(),
  jsonContent: z.string(),
  language: z.string(),
  urlN8N: z.string(),
  typebotSlug: z.string(),
  typebotExpires: z.number().int(),
  typebotDelayMessage: z.number().int(),
  typebotKeywordFinish: z.string(),
  typebotKeywordRestart: z.string(),
  typebotUnknownMessage: z.string(),
  typebotRestartMessage: z.string(),
  signingSecret: z.string(),
  companyId: z.number().int(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedIntegration = z.output<typeof PresentedIntegrationSchema>;

/** A chatbot option (`/queue-options`), with its sub-options under `children`. */
export interface PresentedQueueOption {
  id: number;
  queueId: number;
  parentId: number | null;
  title: string;
  message: string;
  option: string;
  mediaName: string | null;
  mediaUrl: string | null;
  children: PresentedQueueOption[];
  createdAt: string;
  updatedAt: string;
}
export const PresentedQueueOptionSchema: z.ZodType<PresentedQueueOption> = z.object({
  id: z.number().int(),
  queueId: z.number().int(),
  parentId: z.number().int().nullable(),
  title: z.string(),
  message: z.string(),
  option: z.string(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  get children() {
    return z.array(PresentedQueueOptionSchema);
  },
  createdAt: z.string(),
  updatedAt: z.string(),
});
