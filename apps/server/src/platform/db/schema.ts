import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import type { ConnectionProblem, MessageData } from '@atende/shared';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const updatedAt = () => timestamp('updated_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const companyId = () =>
  integer('company_id')
    .notNull()
    .references(() => companies.id, { onDelete: 'cascade' });

/** One weekday's hours: the first interval, and the second (`startTimeB`/`endTimeB`, absent in older rows). */
export interface ScheduleRow {
  weekday: string;
  weekdayEn: string;
  startTime: string;
  endTime: string;
  startTimeB?: string;
  endTimeB?: string;
}

export const plans = pgTable('plans', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  name: text('name').notNull().unique(),
  users: integer('users').notNull().default(0),
  connections: integer('connections').notNull().default(0),
  queues: integer('queues').notNull().default(0),
  /** Integer cents (DECISIONS.md §10). */
  valueCents: integer('value_cents').notNull().default(0),
  useCampaigns: boolean('use_campaigns').notNull().default(true),
  useKanban: boolean('use_kanban').notNull().default(true),
  useOpenAi: boolean('use_open_ai').notNull().default(true),
  useIntegrations: boolean('use_integrations').notNull().default(true),
  useSchedules: boolean('use_schedules').notNull().default(true),
  useInternalChat: boolean('use_internal_chat').notNull().default(true),
  useExternalApi: boolean('use_external_api').notNull().default(true),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

/** Help videos (spec part 2 §3): platform-wide, like plans; only super users change them. */
export const helps = pgTable('helps', {
  id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
  title: text('title').notNull(),
  /** A YouTube video id. */
  video: text('video').notNull(),
  description: text('description').notNull().default(''),
  createdAt: createdAt(),
  updatedAt: updatedAt(),
});

export const companies = pgTable(
  'companies',
  {
    id: integer('id').primaryKey().generatedByDefaultAsIdentity(),
    name: text('name').notNull(),
    email: text('email').notNull().default(''),
    phone: text('phone').notNull().default(''),
    planId: integer('plan_id')
      .notNull()
      .references(() => plans.id, { onDelete: 'restrict' }),
    status: boolean('status').notNull().default(true),
    /** A calendar date (DECISIONS 15): the company works through this day in its own zone. */
    dueDate: date('due_date', { mode: 'string' }),
    recurrence: text('recurrence').notNull().default('MENSAL'),
    schedules: jsonb('schedules').$type<ScheduleRow[]>().notNull().default([]),
    timezone: text('timezone').notNull().default('America/Sao_Paulo'),
    /** End of the free trial of a company that signed up (spec part 2 §2.20); null for companies a super user created. */
    trialExpiration: date('trial_expiration', { mode: 'string' }),
    /**
     * A company the whaticket importer is still copying (`npm run import:whaticket`):
     * invisible (no list shows it, its users cannot sign in, no job works for it) until
     * its import completes.
     */
    importing: boolean('importing').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('companies_plan_id_idx').on(t.planId), index('companies_name_idx').on(t.name), index('companies_due_date_idx').on(t.dueDate)],
);

/**
 * What the whaticket importer copied (`cli/import-whaticket`): each source row's id
 * and the id of the row it became, so a second run adds only what is new and a killed
 * run resumes. `source` names the whaticket database; `company_id` is the Atende
 * company the row went to (null for platform rows: plans, helps, announcements).
 */
export const importIdMap = pgTable(
  'import_id_map',
  {
    source: text('source').notNull(),
    sourceTable: text('source_table').notNull(),
    sourceId: text('source_id').notNull(),
    targetId: bigint('target_id', { mode: 'number' }).notNull(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
  },
  (t) => [
    primaryKey({ columns: [t.source, t.sourceTable, t.sourceId] }),
    index('import_id_map_company_id_idx').on(t.companyId),
  ],
);

export const whatsapps = pgTable(
  'whatsapps',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    status: text('status').notNull().default('DISCONNECTED'),
    isDefault: boolean('is_default').notNull().default(false),
    provider: text('provider').notNull().default('beta'),
    /** Bearer token of the external send API (spec part 2 §2.14); unique when set. */
    token: text('token'),
    /** The connected phone's number, once known. */
    number: text('number').notNull().default(''),
    qrcode: text('qrcode').notNull().default(''),
    retries: integer('retries').notNull().default(0),
    greetingMessage: text('greeting_message').notNull().default(''),
    complationMessage: text('complation_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    expiresInactiveMessage: text('expires_inactive_message').notNull().default(''),
    /** Close open tickets after this many minutes without a message; 0 = never. */
    expiresTicket: integer('expires_ticket').notNull().default(0),
    /** Minutes before the queue menu may be sent again; 0 = no wait. */
    timeUseBotQueues: integer('time_use_bot_queues').notNull().default(0),
    /** How many times the queue menu is sent to one ticket (spec default 3); 0 = no limit. */
    maxUseBotQueues: integer('max_use_bot_queues').notNull().default(3),
    /** Minutes a pending ticket without a queue waits before moving to transferQueueId; 0 = never. */
    timeToTransfer: integer('time_to_transfer').notNull().default(0),
    transferQueueId: integer('transfer_queue_id').references(() => queues.id, { onDelete: 'set null' }),
    promptId: integer('prompt_id').references(() => prompts.id, { onDelete: 'set null' }),
    integrationId: integer('integration_id').references(() => queueIntegrations.id, { onDelete: 'set null' }),
    schedules: jsonb('schedules').$type<ScheduleRow[]>().notNull().default([]),
    /** Provider settings that are not secret (cloud-api: phoneNumberId, wabaId, verifyToken, graphApiBaseUrl). */
    providerConfig: jsonb('provider_config').$type<Record<string, string>>().notNull().default({}),
    /** Provider secrets (cloud-api: accessToken, appSecret) as one JSON object sealed by the secret box. */
    providerSecrets: text('provider_secrets').notNull().default(''),
    /** The Pix key agents send from a ticket of this connection, and the text sent before it (whaticket v6). */
    pix: text('pix').notNull().default(''),
    pixMessage: text('pix_message').notNull().default(''),
    /** The channel's last problem an admin must know of (a revoked token, a webhook-level error); cleared when it connects again. */
    problem: jsonb('problem').$type<ConnectionProblem>(),
    /** A file sent with the greeting (whaticket v6's greeting media), in the company's media folder. */
    greetingMediaPath: text('greeting_media_path'),
    greetingMediaName: text('greeting_media_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('whatsapps_company_id_idx').on(t.companyId, t.name),
    uniqueIndex('whatsapps_token_uq').on(t.token).where(sql`${t.token} is not null and ${t.token} <> ''`),
    index('whatsapps_transfer_queue_id_idx').on(t.transferQueueId),
    index('whatsapps_prompt_id_idx').on(t.promptId),
    index('whatsapps_integration_id_idx').on(t.integrationId),
    // The Cloud API webhook finds its connection by phone number id.
    index('whatsapps_cloud_phone_number_id_idx').on(sql`(${t.providerConfig} ->> 'phoneNumberId')`),
  ],
);

/** Queues offered by a connection's bot menu (spec part 2 §2.2 queueIds). */
export const whatsappQueues = pgTable(
  'whatsapp_queues',
  {
    companyId: companyId(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.whatsappId, t.queueId] }),
    index('whatsapp_queues_company_id_queue_id_idx').on(t.companyId, t.queueId),
    index('whatsapp_queues_queue_id_idx').on(t.queueId),
  ],
);

/**
 * Baileys auth state as key/value rows per connection (`creds`, `pre-key-1`,
 * `session-...`): a key change rewrites one row, never the whole state.
 */
export const baileysAuthKeys = pgTable(
  'baileys_auth_keys',
  {
    companyId: companyId(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    key: text('key').notNull(),
    value: text('value').notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [primaryKey({ columns: [t.whatsappId, t.key] }), index('baileys_auth_keys_company_id_idx').on(t.companyId, t.whatsappId)],
);

/**
 * Which node runs each connection's session: a lease renewed by its holder and
 * taken over by another node once it expires (ARCHITECTURE.md §3.9).
 */
export const channelLeases = pgTable(
  'channel_leases',
  {
    whatsappId: integer('whatsapp_id')
      .primaryKey()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    nodeId: text('node_id').notNull(),
    leaseUntil: timestamp('lease_until', { withTimezone: true, mode: 'date' }).notNull(),
    updatedAt: updatedAt(),
  },
  (t) => [index('channel_leases_company_id_idx').on(t.companyId), index('channel_leases_lease_until_idx').on(t.leaseUntil)],
);

export const users = pgTable(
  'users',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    email: text('email').notNull(),
    passwordHash: text('password_hash').notNull(),
    profile: text('profile', { enum: ['admin', 'user'] }).notNull().default('user'),
    super: boolean('super').notNull().default(false),
    allTicket: text('all_ticket', { enum: ['enabled', 'desabled'] }).notNull().default('desabled'),
    tokenVersion: integer('token_version').notNull().default(0),
    language: text('language'),
    online: boolean('online').notNull().default(false),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true, mode: 'date' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    /** Auto-assignment (issue 35): the most open tickets the agent is given; null: each queue's default. */
    maxOpenTickets: integer('max_open_tickets'),
    /** When auto-assignment last gave the agent a ticket (balanced: ties go to the longest idle). */
    lastAssignedAt: timestamp('last_assigned_at', { withTimezone: true, mode: 'date' }),
    /** Web Push (issue 35): the kinds of notification the user's subscribed browsers get. */
    pushNewTickets: boolean('push_new_tickets').notNull().default(true),
    pushTicketMessages: boolean('push_ticket_messages').notNull().default(true),
    pushChatMessages: boolean('push_chat_messages').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('users_email_uq').on(t.email),
    index('users_company_id_name_idx').on(t.companyId, t.name),
    index('users_company_id_whatsapp_id_idx').on(t.companyId, t.whatsappId),
    index('users_whatsapp_id_idx').on(t.whatsappId).where(sql`${t.whatsappId} is not null`),
    check('users_profile_ck', sql`${t.profile} in ('admin', 'user')`),
    check('users_all_ticket_ck', sql`${t.allTicket} in ('enabled', 'desabled')`),
  ],
);

export const settings = pgTable(
  'settings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    key: text('key').notNull(),
    value: text('value').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('settings_company_id_key_uq').on(t.companyId, t.key)],
);

export const queues = pgTable(
  'queues',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    color: text('color').notNull(),
    orderQueue: integer('order_queue'),
    greetingMessage: text('greeting_message').notNull().default(''),
    outOfHoursMessage: text('out_of_hours_message').notNull().default(''),
    ratingMessage: text('rating_message').notNull().default(''),
    schedules: jsonb('schedules').$type<ScheduleRow[]>().notNull().default([]),
    promptId: integer('prompt_id').references((): AnyPgColumn => prompts.id, { onDelete: 'set null' }),
    integrationId: integer('integration_id').references(() => queueIntegrations.id, { onDelete: 'set null' }),
    /** A file sent with the queue's greeting (whaticket v6's queue media), in the company's media folder. */
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    /** Auto-assignment (issue 35): `off`, `round_robin` or `balanced`. */
    autoAssign: text('auto_assign', { enum: ['off', 'round_robin', 'balanced'] }).notNull().default('off'),
    /** The capacity of an agent whose own `maxOpenTickets` is null. */
    defaultMaxOpenTickets: integer('default_max_open_tickets').notNull().default(5),
    /** round_robin: the agent assigned last (the next one after it is next). */
    assignCursorUserId: integer('assign_cursor_user_id'),
    /** Response-time targets (SLA, issue 35) in minutes of the queue's business hours; null: no target. */
    slaFirstResponseMinutes: integer('sla_first_response_minutes'),
    slaResolutionMinutes: integer('sla_resolution_minutes'),
    /** Share of a target's time after which its tickets are marked as near the breach. */
    slaWarnPercent: integer('sla_warn_percent').notNull().default(80),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('queues_company_id_color_uq').on(t.companyId, t.color),
    check('queues_auto_assign_ck', sql`${t.autoAssign} in ('off', 'round_robin', 'balanced')`),
    index('queues_company_id_order_idx').on(t.companyId, t.orderQueue),
    index('queues_prompt_id_idx').on(t.promptId),
    index('queues_integration_id_idx').on(t.integrationId),
  ],
);

/**
 * Days a connection is closed (whaticket v6's holiday periods): from `startDate` through
 * `endDate`, calendar days of the company's zone. While one is active the connection's new
 * messages get its `message` (at most once every `repeatIntervalHours` per ticket) and no bot.
 */
export const holidayPeriods = pgTable(
  'holiday_periods',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    startDate: date('start_date', { mode: 'string' }).notNull(),
    endDate: date('end_date', { mode: 'string' }).notNull(),
    message: text('message').notNull().default(''),
    active: boolean('active').notNull().default(true),
    repeatIntervalHours: integer('repeat_interval_hours').notNull().default(24),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('holiday_periods_company_id_whatsapp_id_idx').on(t.companyId, t.whatsappId, t.startDate), index('holiday_periods_whatsapp_id_idx').on(t.whatsappId, t.endDate)],
);

/** A queue's chatbot option tree (spec part 2 §2.3): roots have no parent. */
export const queueOptions = pgTable(
  'queue_options',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    parentId: integer('parent_id').references((): AnyPgColumn => queueOptions.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    message: text('message').notNull().default(''),
    /** The number the customer types to choose it. */
    option: text('option').notNull(),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('queue_options_company_id_queue_parent_idx').on(t.companyId, t.queueId, t.parentId, t.option),
    index('queue_options_parent_id_idx').on(t.parentId),
    index('queue_options_queue_id_idx').on(t.queueId),
  ],
);

/** AI prompts (spec part 2 §2.12). The API key is sealed by the secret box. */
export const prompts = pgTable(
  'prompts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    prompt: text('prompt').notNull(),
    model: text('model').notNull().default('gpt-3.5-turbo-1106'),
    maxTokens: integer('max_tokens').notNull().default(100),
    temperature: real('temperature').notNull().default(1),
    maxMessages: integer('max_messages').notNull().default(10),
    apiKeySealed: text('api_key_sealed').notNull(),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('prompts_company_id_name_idx').on(t.companyId, t.name), index('prompts_queue_id_idx').on(t.queueId)],
);

/** Third-party bots (spec part 2 §2.13): dialogflow, n8n, webhook, typebot. */
export const queueIntegrations = pgTable(
  'queue_integrations',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    type: text('type', { enum: ['dialogflow', 'n8n', 'webhook', 'typebot'] }).notNull(),
    name: text('name').notNull(),
    projectName: text('project_name').notNull().default(''),
    /** Dialogflow service-account JSON, sealed by the secret box. */
    jsonContentSealed: text('json_content_sealed').notNull().default(''),
    language: text('language').notNull().default('pt-BR'),
    urlN8N: text('url_n8n').notNull().default(''),
    typebotSlug: text('typebot_slug').notNull().default(''),
    typebotExpires: integer('typebot_expires').notNull().default(1),
    typebotDelayMessage: integer('typebot_delay_message').notNull().default(1000),
    typebotKeywordFinish: text('typebot_keyword_finish').notNull().default(''),
    typebotKeywordRestart: text('typebot_keyword_restart').notNull().default(''),
    typebotUnknownMessage: text('typebot_unknown_message').notNull().default(''),
    typebotRestartMessage: text('typebot_restart_message').notNull().default(''),
    /** Signs outgoing webhook calls (HMAC header), sealed by the secret box. */
    signingSecretSealed: text('signing_secret_sealed').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('queue_integrations_company_id_name_idx').on(t.companyId, t.name),
    check('queue_integrations_type_ck', sql`${t.type} in ('dialogflow', 'n8n', 'webhook', 'typebot')`),
  ],
);

/**
 * Who is online (issue 35): one row per node and user while the user has a live socket on
 * that node. The node refreshes `heartbeat_at` of its rows; a row whose heartbeat is older
 * than PRESENCE_STALE_SECONDS (a node that died) does not count and is deleted by any node.
 */
export const userPresence = pgTable(
  'user_presence',
  {
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    nodeId: text('node_id').notNull(),
    heartbeatAt: timestamp('heartbeat_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.nodeId] }),
    index('user_presence_company_id_user_id_idx').on(t.companyId, t.userId),
    index('user_presence_node_id_idx').on(t.nodeId),
    index('user_presence_heartbeat_at_idx').on(t.heartbeatAt),
  ],
);

export const userQueues = pgTable(
  'user_queues',
  {
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    queueId: integer('queue_id')
      .notNull()
      .references(() => queues.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.queueId] }),
    index('user_queues_company_id_queue_id_idx').on(t.companyId, t.queueId),
    index('user_queues_queue_id_idx').on(t.queueId),
  ],
);

/**
 * Rotating refresh tokens. Only a hash is stored. Each login starts a family; a
 * refresh replaces the token inside its family, and presenting a replaced token
 * (a stolen copy being reused) revokes the whole family.
 */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    familyId: text('family_id').notNull(),
    tokenHash: text('token_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    /** When the token was replaced by its successor (rotation). */
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    /**
     * The successor's value sealed with the SecretBox, kept for the grace window after
     * `usedAt` so a concurrent refresh with this token gets the same new session;
     * cleared once the window has passed (modules/auth/auth.service.ts `refresh`).
     */
    successorSealed: text('successor_sealed'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_token_hash_uq').on(t.tokenHash),
    index('refresh_tokens_company_id_user_id_idx').on(t.companyId, t.userId),
    index('refresh_tokens_user_id_idx').on(t.userId),
    index('refresh_tokens_family_id_idx').on(t.familyId),
    // The sealed successors still kept: few rows, found by age to be cleared.
    index('refresh_tokens_successor_used_at_idx').on(t.usedAt).where(sql`${t.successorSealed} is not null`),
  ],
);

export const contacts = pgTable(
  'contacts',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    number: text('number').notNull(),
    email: text('email').notNull().default(''),
    profilePicUrl: text('profile_pic_url').notNull().default(''),
    isGroup: boolean('is_group').notNull().default(false),
    /** The connection the contact first wrote through. */
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    /** A calendar date (YYYY-MM-DD), as whaticket v6 keeps it. */
    birthday: date('birthday', { mode: 'string' }),
    /** The chatbot, integrations and AI prompts never answer this contact (whaticket v6's `disableBot`). */
    disableBot: boolean('disable_bot').notNull().default(false),
    /** whaticket v6's contact flag, kept and shown; nothing else reads it (v6 neither). */
    active: boolean('active').notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('contacts_company_id_number_uq').on(t.companyId, t.number),
    index('contacts_company_id_name_idx').on(t.companyId, sql`lower(${t.name})`),
    // Substring search by name or number (contacts page, ticket search) through trigrams.
    // Searched on every keystroke and written only when a contact arrives: no pending list (fastupdate)
    // for searches to scan until the next vacuum.
    index('contacts_name_trgm_idx').using('gin', sql`lower(${t.name}) gin_trgm_ops`).with({ fastupdate: false }),
    index('contacts_number_trgm_idx').using('gin', sql`${t.number} gin_trgm_ops`).with({ fastupdate: false }),
    index('contacts_email_trgm_idx').using('gin', sql`lower(${t.email}) gin_trgm_ops`).with({ fastupdate: false }),
    index('contacts_company_id_created_at_idx').on(t.companyId, t.createdAt),
    index('contacts_whatsapp_id_idx').on(t.whatsappId),
  ],
);

export const contactExtraInfo = pgTable(
  'contact_extra_info',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    value: text('value').notNull().default(''),
  },
  (t) => [index('contact_extra_info_company_id_contact_id_idx').on(t.companyId, t.contactId), index('contact_extra_info_contact_id_idx').on(t.contactId)],
);

export const tickets = pgTable(
  'tickets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    uuid: text('uuid').notNull().default(sql`gen_random_uuid()::text`),
    companyId: companyId(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    status: text('status', { enum: ['open', 'pending', 'closed'] }).notNull().default('pending'),
    isGroup: boolean('is_group').notNull().default(false),
    chatbot: boolean('chatbot').notNull().default(false),
    unreadMessages: integer('unread_messages').notNull().default(0),
    lastMessage: text('last_message').notNull().default(''),
    useIntegration: boolean('use_integration').notNull().default(false),
    promptId: integer('prompt_id').references(() => prompts.id, { onDelete: 'set null' }),
    integrationId: integer('integration_id').references(() => queueIntegrations.id, { onDelete: 'set null' }),
    /** Where the customer is in its queue's option tree (null: at the queue menu or not in the bot). */
    queueOptionId: integer('queue_option_id').references(() => queueOptions.id, { onDelete: 'set null' }),
    /** How many times the queue menu was sent, and when last (maxUseBotQueues, timeUseBotQueues). */
    amountUsedBotQueues: integer('amount_used_bot_queues').notNull().default(0),
    lastBotMenuAt: timestamp('last_bot_menu_at', { withTimezone: true, mode: 'date' }),
    /** The rest of the automation's state for this ticket (typebot session, invalid-answer counts, out-of-hours notice). */
    botState: jsonb('bot_state').$type<Record<string, unknown>>().notNull().default({}),
    /** A closed ticket waiting for its 1–3 rating: 'awaiting', then 'reprompted' after one wrong answer. */
    ratingState: text('rating_state'),
    lastCustomerMessageAt: timestamp('last_customer_message_at', { withTimezone: true, mode: 'date' }),
    closedAt: timestamp('closed_at', { withTimezone: true, mode: 'date' }),
    /**
     * The SLA clocks (issue 35, modules/sla). The trigger `tickets_sla_clock` (migration 0038) starts them when
     * the ticket enters a queue or is reopened (`slaStartedAt`, `slaPending`); the SLA sweep then writes the
     * due and warning instants from the queue's targets and hours, and clears `slaPending`. The trigger on
     * messages sets `slaFirstRespondedAt` at the first agent message after the start.
     */
    slaStartedAt: timestamp('sla_started_at', { withTimezone: true, mode: 'date' }),
    slaPending: boolean('sla_pending').notNull().default(false),
    slaFirstResponseDueAt: timestamp('sla_first_response_due_at', { withTimezone: true, mode: 'date' }),
    slaFirstResponseWarnAt: timestamp('sla_first_response_warn_at', { withTimezone: true, mode: 'date' }),
    slaResolutionDueAt: timestamp('sla_resolution_due_at', { withTimezone: true, mode: 'date' }),
    slaResolutionWarnAt: timestamp('sla_resolution_warn_at', { withTimezone: true, mode: 'date' }),
    slaFirstRespondedAt: timestamp('sla_first_responded_at', { withTimezone: true, mode: 'date' }),
    /** The next target still running (first response until answered, then resolution); null when closed or none. */
    slaDueAt: timestamp('sla_due_at', { withTimezone: true, mode: 'date' }).generatedAlwaysAs(
      sql`case when status = 'closed' then null when sla_first_responded_at is null and sla_first_response_due_at is not null then least(sla_first_response_due_at, sla_resolution_due_at) else sla_resolution_due_at end`,
    ),
    slaWarnAt: timestamp('sla_warn_at', { withTimezone: true, mode: 'date' }).generatedAlwaysAs(
      sql`case when status = 'closed' then null when sla_first_responded_at is null and sla_first_response_warn_at is not null then least(sla_first_response_warn_at, sla_resolution_warn_at) else sla_resolution_warn_at end`,
    ),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('tickets_uuid_uq').on(t.uuid),
    // "Closest to breach" (GET /tickets?sortBy=sla) and the SLA sweep's due targets.
    index('tickets_company_id_status_sla_due_at_idx').on(t.companyId, t.status, t.slaDueAt, t.id),
    index('tickets_sla_due_at_idx').on(t.slaDueAt).where(sql`${t.slaDueAt} is not null`),
    index('tickets_sla_pending_idx').on(t.id).where(sql`${t.slaPending}`),
    // Decision 3: at most one open or pending ticket per contact per connection.
    uniqueIndex('tickets_one_active_uq')
      .on(t.companyId, t.contactId, t.whatsappId)
      .where(sql`${t.status} in ('open', 'pending')`),
    // The lists' order (unread first, then most recently updated) read straight off the index.
    index('tickets_list_order_idx').on(t.companyId, t.status, sql`(${t.unreadMessages} > 0)`, t.updatedAt, t.id),
    index('tickets_company_id_updated_at_idx').on(t.companyId, t.updatedAt),
    // The tickets report (whaticket v6's `/ticket/reports`) filters by creation day.
    index('tickets_company_id_created_at_idx').on(t.companyId, t.createdAt),
    index('tickets_company_id_user_id_status_idx').on(t.companyId, t.userId, t.status),
    index('tickets_company_id_queue_id_status_idx').on(t.companyId, t.queueId, t.status),
    index('tickets_company_id_contact_id_idx').on(t.companyId, t.contactId),
    // Foreign keys that are null on most rows (a pending ticket has no user, most have no prompt): the index
    // skips those rows, so writing a ticket does not write an entry for each. The delete's lookup still uses it.
    index('tickets_whatsapp_id_idx').on(t.whatsappId),
    index('tickets_user_id_idx').on(t.userId).where(sql`${t.userId} is not null`),
    index('tickets_queue_id_idx').on(t.queueId).where(sql`${t.queueId} is not null`),
    index('tickets_contact_id_idx').on(t.contactId),
    index('tickets_prompt_id_idx').on(t.promptId).where(sql`${t.promptId} is not null`),
    index('tickets_integration_id_idx').on(t.integrationId).where(sql`${t.integrationId} is not null`),
    index('tickets_queue_option_id_idx').on(t.queueOptionId).where(sql`${t.queueOptionId} is not null`),
    // The rating reply finds the contact's closed ticket still waiting for it.
    index('tickets_awaiting_rating_idx').on(t.companyId, t.contactId, t.whatsappId).where(sql`${t.ratingState} is not null`),
    check('tickets_status_ck', sql`${t.status} in ('open', 'pending', 'closed')`),
  ],
);

/** An outgoing message as the channel gets it (`OutgoingMessage` in channels/channel-provider.ts). */
export interface OutgoingPayload {
  to: string;
  body: string;
  media?: { path: string; name: string; mimeType: string; mediaType: 'image' | 'audio' | 'video' | 'application'; size: number };
  quotedExternalId?: string | null;
  /** Lets a provider that supports it make a repeated send a no-op (outbound engine). */
  idempotencyKey?: string;
  /** A Cloud API template (sent with `sendTemplate`; `body` is its rendered text). */
  template?: { name: string; language: string; parameters: string[] };
  /** A forward: marked forwarded where the channel can. */
  forwarded?: boolean;
  /** A saved sticker (a WebP goes as WhatsApp's sticker). */
  sticker?: boolean;
}

export const messages = pgTable(
  'messages',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    /** The channel's message id, unique per connection (decision 4). */
    externalId: text('external_id'),
    body: text('body').notNull().default(''),
    fromMe: boolean('from_me').notNull().default(false),
    /** Who produced it: customer, agent, phone (typed on the phone itself), bot or system (decision 9). */
    source: text('source', { enum: ['customer', 'agent', 'phone', 'bot', 'system'] }).notNull().default('customer'),
    ack: integer('ack').notNull().default(0),
    read: boolean('read').notNull().default(false),
    mediaType: text('media_type'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    quotedMsgId: bigint('quoted_msg_id', { mode: 'number' }),
    senderName: text('sender_name'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    isEdited: boolean('is_edited').notNull().default(false),
    /**
     * Outgoing messages are stored before they reach the channel (ARCHITECTURE §3.14):
     * 'pending' until the channel answers, then 'sent' (with its external id) or
     * 'failed' with the error code in `sendError`. Null for what the channel brought in.
     */
    sendStatus: text('send_status', { enum: ['pending', 'sent', 'failed'] }),
    sendError: text('send_error'),
    sendAttempts: integer('send_attempts').notNull().default(0),
    /** What is handed to the channel, kept so a retry (or the recovery after a crash) sends the same thing. */
    sendPayload: jsonb('send_payload').$type<OutgoingPayload>(),
    /** What the channel gave beyond text and file (reactions, order, referral, ...; issue 19), presented as `dataJson`. */
    dataJson: jsonb('data_json').$type<MessageData>(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The recovery sweep's look-up of messages a stopped node left pending.
    index('messages_pending_send_idx').on(t.updatedAt).where(sql`${t.sendStatus} = 'pending'`),
    uniqueIndex('messages_external_id_uq')
      .on(t.companyId, t.whatsappId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    // A channel's status naming one of our sends by its key, for a message without the channel's id yet.
    index('messages_unsent_key_idx')
      .on(t.whatsappId, sql`(${t.sendPayload} ->> 'idempotencyKey')`)
      .where(sql`${t.externalId} is null and ${t.fromMe}`),
    index('messages_ticket_id_created_at_idx').on(t.ticketId, t.createdAt, t.id),
    index('messages_company_id_contact_history_idx').on(t.companyId, t.contactId, t.whatsappId, t.createdAt, t.id),
    // An inbound message has no user and quotes nothing: those indexes skip it (see tickets).
    index('messages_contact_id_idx').on(t.contactId),
    index('messages_whatsapp_id_idx').on(t.whatsappId),
    index('messages_user_id_idx').on(t.userId).where(sql`${t.userId} is not null`),
    index('messages_quoted_msg_id_idx').on(t.quotedMsgId).where(sql`${t.quotedMsgId} is not null`),
  ],
);

/**
 * A customer message's bot turn that has not finished (ARCHITECTURE §3, issue 29):
 * written by the ingest in the statement that stores the message, so a crash between
 * the message and the bot's answer loses nothing. The decision deletes it in the
 * transaction that stores the bot's replies (as pending sends); a decision that needs
 * the network (an integration, a prompt) leaves it with `follow_up` set until the
 * follow-up's outcome is stored. What a stopped node left is taken over by the
 * worker's sweep (automation/bot-turn-recovery.ts).
 */
export const botTurns = pgTable(
  'bot_turns',
  {
    messageId: bigint('message_id', { mode: 'number' })
      .primaryKey()
      .references(() => messages.id, { onDelete: 'cascade' }),
    // No keys of their own: the message's cascade removes the row with its ticket or company.
    companyId: integer('company_id').notNull(),
    ticketId: integer('ticket_id').notNull(),
    /** Null: the decision is due. Set: the decision is stored and its network part is due. */
    followUp: jsonb('follow_up').$type<Record<string, unknown>>(),
    /** Sweeps that took it over: a turn that keeps failing is given up after a few. */
    attempts: integer('attempts').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [index('bot_turns_updated_at_idx').on(t.updatedAt)],
);

/**
 * The words of each message, one row per company, word and message, in the
 * `simple` full-text configuration's tokens (`message_words`), with the message's
 * ticket. Triggers on messages keep it (migration 0009). Ticket search reads it
 * with an index-only scan, which gives the ticket ids without visiting one message
 * row per match; the message id in the key makes every insert land at the end of
 * its word's run of the index, where the pages are already in memory. No foreign
 * keys: each would be checked for every word.
 */
export const messageTerms = pgTable(
  'message_terms',
  {
    companyId: integer('company_id').notNull(),
    term: text('term').notNull(),
    messageId: bigint('message_id', { mode: 'number' }).notNull(),
    ticketId: integer('ticket_id').notNull(),
  },
  (t) => [primaryKey({ name: 'message_terms_pkey', columns: [t.companyId, t.term, t.messageId, t.ticketId] })],
);

export const tags = pgTable(
  'tags',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    color: text('color').notNull().default('#A4CCCC'),
    kanban: integer('kanban').notNull().default(0),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('tags_company_id_name_uq').on(t.companyId, t.name), index('tags_user_id_idx').on(t.userId)],
);

export const ticketTags = pgTable(
  'ticket_tags',
  {
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    tagId: integer('tag_id')
      .notNull()
      .references(() => tags.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.ticketId, t.tagId] }),
    index('ticket_tags_company_id_tag_id_idx').on(t.companyId, t.tagId),
    index('ticket_tags_tag_id_idx').on(t.tagId),
  ],
);

export const ticketNotes = pgTable(
  'ticket_notes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    note: text('note').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('ticket_notes_company_id_contact_id_idx').on(t.companyId, t.contactId, t.createdAt),
    index('ticket_notes_contact_id_idx').on(t.contactId),
    index('ticket_notes_ticket_id_idx').on(t.ticketId),
    index('ticket_notes_user_id_idx').on(t.userId),
  ],
);

/**
 * A response-time target a ticket missed (issue 35): written once per clock by the SLA sweep (the unique index
 * settles two nodes), with the queue and the agent the ticket had then; the agent and the queue's admins are
 * notified by the writer.
 */
export const ticketSlaBreaches = pgTable(
  'ticket_sla_breaches',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['first_response', 'resolution'] }).notNull(),
    dueAt: timestamp('due_at', { withTimezone: true, mode: 'date' }).notNull(),
    breachedAt: timestamp('breached_at', { withTimezone: true, mode: 'date' }).notNull(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('ticket_sla_breaches_ticket_kind_due_uq').on(t.ticketId, t.kind, t.dueAt),
    index('ticket_sla_breaches_company_id_breached_at_idx').on(t.companyId, t.breachedAt),
    index('ticket_sla_breaches_user_id_idx').on(t.userId).where(sql`${t.userId} is not null`),
    index('ticket_sla_breaches_queue_id_idx').on(t.queueId).where(sql`${t.queueId} is not null`),
    check('ticket_sla_breaches_kind_ck', sql`${t.kind} in ('first_response', 'resolution')`),
  ],
);

export const quickMessages = pgTable(
  'quick_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    shortcode: text('shortcode').notNull(),
    message: text('message').notNull().default(''),
    geral: boolean('geral').notNull().default(false),
    status: boolean('status').notNull().default(true),
    /** Picked in the composer, the reply opens for editing instead of going at once (whaticket v6). */
    editBeforeSend: boolean('edit_before_send').notNull().default(false),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('quick_messages_company_id_shortcode_idx').on(t.companyId, t.shortcode),
    index('quick_messages_user_id_idx').on(t.userId),
  ],
);

/**
 * A company's saved sticker images (issue 32, whaticket v6's `Stickers`): shared with the
 * company (`user_id` null) or one agent's own; the file lives in the company's media folder.
 */
export const stickers = pgTable(
  'stickers',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    userId: integer('user_id').references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path').notNull(),
    mimetype: text('mimetype').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The picker's list: the company's stickers, newest first.
    index('stickers_company_id_created_at_idx').on(t.companyId, t.createdAt),
    index('stickers_user_id_idx').on(t.userId).where(sql`${t.userId} is not null`),
  ],
);

export type StickerRow = typeof stickers.$inferSelect;

/**
 * Company API keys (issue 34). The secret is never stored: `key_hash` is the SHA-256
 * of the whole key (`atk_<prefix id>_<secret>`); `prefix` (the public id part) finds
 * the row, then the hashes are compared in constant time. A key acts as the admin who
 * made it (`created_by`) and ends with that user.
 */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    createdBy: integer('created_by')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    prefix: text('prefix').notNull(),
    keyHash: text('key_hash').notNull(),
    scopes: text('scopes').array().notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true, mode: 'date' }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true, mode: 'date' }),
    lastUsedIp: text('last_used_ip'),
    createdAt: createdAt(),
  },
  (t) => [
    index('api_keys_company_id_idx').on(t.companyId, t.createdAt),
    index('api_keys_created_by_idx').on(t.createdBy),
    uniqueIndex('api_keys_prefix_idx').on(t.prefix),
    uniqueIndex('api_keys_key_hash_idx').on(t.keyHash),
  ],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;

/**
 * A user's second factor (issue 35, docs/architecture.md "Two-factor sign-in"): the TOTP
 * secret sealed with the SecretBox, `enabled_at` null while it is being set up, and the
 * last time step a code was accepted for (a code is accepted once: a step at or before
 * it is refused).
 */
export const userTwoFactor = pgTable(
  'user_two_factor',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    secretSealed: text('secret_sealed').notNull(),
    enabledAt: timestamp('enabled_at', { withTimezone: true, mode: 'date' }),
    lastStep: bigint('last_step', { mode: 'number' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('user_two_factor_company_id_idx').on(t.companyId)],
);

/** The ten single-use recovery codes of an enabled second factor: only a keyed hash of each (HMAC-SHA-256). */
export const twoFactorRecoveryCodes = pgTable(
  'two_factor_recovery_codes',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    codeHash: text('code_hash').notNull(),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('two_factor_recovery_codes_user_id_code_hash_uq').on(t.userId, t.codeHash),
    index('two_factor_recovery_codes_company_id_idx').on(t.companyId),
  ],
);

/**
 * The audit log (issue 35): who did what, when and from where, for security-relevant and
 * configuration changes. Rows are only ever inserted by the product (`platform/audit/`);
 * a trigger refuses UPDATE, and only the retention job (and a company's deletion) removes
 * them. `company_id` null is a platform-level entry (plans, companies), which only super
 * users read. `user_id` and `api_key_id` have no foreign key on purpose: an entry outlives
 * the user or key it names (`user_name` keeps who it was).
 */
export const auditLogs = pgTable(
  'audit_logs',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: integer('company_id').references(() => companies.id, { onDelete: 'cascade' }),
    userId: integer('user_id'),
    userName: text('user_name'),
    apiKeyId: integer('api_key_id'),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id'),
    ip: text('ip'),
    userAgent: text('user_agent'),
    changes: jsonb('changes').$type<Record<string, unknown>>(),
    createdAt: createdAt(),
  },
  (t) => [
    index('audit_logs_company_created_idx').on(t.companyId, t.createdAt.desc(), t.id.desc()),
    index('audit_logs_company_action_idx').on(t.companyId, t.action, t.createdAt.desc()),
    index('audit_logs_company_user_idx').on(t.companyId, t.userId, t.createdAt.desc()),
    index('audit_logs_company_entity_idx').on(t.companyId, t.entity, t.createdAt.desc()),
    index('audit_logs_created_at_idx').on(t.createdAt),
  ],
);

export type AuditLogRow = typeof auditLogs.$inferSelect;

/**
 * A browser's Web Push subscription (issue 35): where the push service takes a
 * notification for it, and its keys to encrypt it (RFC 8291). The endpoint names
 * one browser's channel, so it belongs to one user at a time (unique).
 */
export const pushSubscriptions = pgTable(
  'push_subscriptions',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    endpoint: text('endpoint').notNull(),
    p256dh: text('p256dh').notNull(),
    auth: text('auth').notNull(),
    /** The page's language when it subscribed (the user's own language, when set, wins). */
    language: text('language'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('push_subscriptions_endpoint_uq').on(t.endpoint),
    index('push_subscriptions_company_id_user_id_idx').on(t.companyId, t.userId),
    index('push_subscriptions_user_id_idx').on(t.userId),
  ],
);

export type PushSubscriptionRow = typeof pushSubscriptions.$inferSelect;

/**
 * Event webhooks (issue 34 item 3): a company's URL subscribed to events. The signing
 * secret is sealed (SecretBox): the server needs it back to sign every delivery.
 */
export const webhooks = pgTable(
  'webhooks',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    url: text('url').notNull(),
    events: text('events').array().notNull(),
    description: text('description').notNull().default(''),
    secretSealed: text('secret_sealed').notNull(),
    enabled: boolean('enabled').notNull().default(true),
    /** Why the server turned it off (`failing`), null when on or turned off by an admin. */
    disabledReason: text('disabled_reason'),
    /** Since when its deliveries have failed without one success in between; null while healthy. */
    failingSince: timestamp('failing_since', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('webhooks_company_id_idx').on(t.companyId, t.enabled)],
);

export type WebhookRow = typeof webhooks.$inferSelect;

/**
 * The outbox of event webhooks: one row per (event, webhook), written in the
 * transaction of the change, sent after commit by the worker (modules/webhooks).
 * `ordering_key` names the entity whose events go out in order (a ticket, contact,
 * connection or campaign): only the oldest unfinished row of a webhook's key is sent.
 */
export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    webhookId: integer('webhook_id')
      .notNull()
      .references(() => webhooks.id, { onDelete: 'cascade' }),
    eventId: text('event_id').notNull(),
    event: text('event').notNull(),
    orderingKey: text('ordering_key').notNull(),
    /** The entity as the API presents it (the body's `data`). */
    data: jsonb('data').notNull(),
    /** pending | delivered | failed */
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    lastStatusCode: integer('last_status_code'),
    lastError: text('last_error'),
    latencyMs: integer('latency_ms'),
    responseExcerpt: text('response_excerpt'),
    createdAt: createdAt(),
    lastAttemptAt: timestamp('last_attempt_at', { withTimezone: true, mode: 'date' }),
    nextAttemptAt: timestamp('next_attempt_at', { withTimezone: true, mode: 'date' }).defaultNow(),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    /** The claim's lease: a worker that dies leaves it to expire, and another node sends it again. */
    lockedUntil: timestamp('locked_until', { withTimezone: true, mode: 'date' }),
  },
  (t) => [
    index('webhook_deliveries_company_id_idx').on(t.companyId, t.webhookId, t.id),
    index('webhook_deliveries_webhook_id_idx').on(t.webhookId, t.status, t.id),
    index('webhook_deliveries_pending_key_idx').on(t.webhookId, t.orderingKey, t.id).where(sql`status = 'pending'`),
    // The claim's order (next_attempt_at, id): the claim walks it and stops at its LIMIT
    // instead of sorting every pending row (webhook-deliveries.repo.ts).
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt, t.id).where(sql`status = 'pending'`),
    index('webhook_deliveries_finished_idx').on(t.createdAt).where(sql`status <> 'pending'`),
  ],
);

export type WebhookDeliveryRow = typeof webhookDeliveries.$inferSelect;

/**
 * One cycle of a ticket (issue 21), from the moment it is queued (created, or
 * reopened by hand) to its close and rating: what the dashboard counts. Written by
 * database triggers (migration 0019) in the same transaction as the change that
 * causes each moment, whatever code path makes it.
 */
export const ticketCycles = pgTable(
  'ticket_cycles',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    queueId: integer('queue_id').references(() => queues.id, { onDelete: 'set null' }),
    /** The agent who has the ticket (the last one, after transfers). */
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    queuedAt: timestamp('queued_at', { withTimezone: true }).notNull(),
    /** Accepted: the first time an agent took it in this cycle. */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** The first agent message (never a bot's or the system's, decision 9). */
    firstResponseAt: timestamp('first_response_at', { withTimezone: true }),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    ratedAt: timestamp('rated_at', { withTimezone: true }),
    rating: integer('rating'),
    transfers: integer('transfers').notNull().default(0),
  },
  (t) => [
    index('ticket_cycles_company_id_queued_at_idx').on(t.companyId, t.queuedAt),
    index('ticket_cycles_ticket_id_idx').on(t.ticketId, t.id),
    index('ticket_cycles_contact_id_idx').on(t.contactId),
    index('ticket_cycles_whatsapp_id_idx').on(t.whatsappId),
    index('ticket_cycles_queue_id_idx').on(t.queueId),
    index('ticket_cycles_user_id_idx').on(t.userId),
    check('ticket_cycles_rating_ck', sql`${t.rating} between 1 and 3`),
  ],
);

/**
 * The dashboard's daily totals (issue 21): the cycles queued on each day of the
 * company's time zone, per agent, queue and connection (0 = none), kept by a
 * trigger on `ticket_cycles` (migration 0020) and rebuilt when the company's time
 * zone changes. First responses are counted apart (`ticket_cycle_frt`).
 */
export const ticketCycleDays = pgTable(
  'ticket_cycle_days',
  {
    companyId: integer('company_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    userId: integer('user_id').notNull().default(0),
    queueId: integer('queue_id').notNull().default(0),
    whatsappId: integer('whatsapp_id').notNull().default(0),
    queued: integer('queued').notNull().default(0),
    happening: integer('happening').notNull().default(0),
    pending: integer('pending').notNull().default(0),
    finished: integer('finished').notNull().default(0),
    supportSeconds: doublePrecision('support_seconds').notNull().default(0),
    supportCount: integer('support_count').notNull().default(0),
    waitSeconds: doublePrecision('wait_seconds').notNull().default(0),
    waitCount: integer('wait_count').notNull().default(0),
    rated1: integer('rated_1').notNull().default(0),
    rated2: integer('rated_2').notNull().default(0),
    rated3: integer('rated_3').notNull().default(0),
    ratedFinished: integer('rated_finished').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.userId, t.queueId, t.whatsappId] })],
);

/**
 * First responses per day, queue and connection, counted in histogram buckets
 * (`bucket`, see `dashboard.service.ts` frtBucketStart) so the dashboard's median
 * and p90 need no scan of the cycles (issue 21, migration 0020).
 */
export const ticketCycleFrt = pgTable(
  'ticket_cycle_frt',
  {
    companyId: integer('company_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    queueId: integer('queue_id').notNull().default(0),
    whatsappId: integer('whatsapp_id').notNull().default(0),
    bucket: integer('bucket').notNull(),
    n: integer('n').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.queueId, t.whatsappId, t.bucket] })],
);

/** New contacts per day of the company's time zone and connection (0 = none), for the dashboard (issue 21). */
export const contactDays = pgTable(
  'contact_days',
  {
    companyId: integer('company_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    whatsappId: integer('whatsapp_id').notNull().default(0),
    created: integer('created').notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.companyId, t.day, t.whatsappId] })],
);

/** A ticket moved between queues or agents during a cycle (issue 21). */
export const ticketTransfers = pgTable(
  'ticket_transfers',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    cycleId: bigint('cycle_id', { mode: 'number' })
      .notNull()
      .references(() => ticketCycles.id, { onDelete: 'cascade' }),
    fromQueueId: integer('from_queue_id').references(() => queues.id, { onDelete: 'set null' }),
    toQueueId: integer('to_queue_id').references(() => queues.id, { onDelete: 'set null' }),
    fromUserId: integer('from_user_id').references(() => users.id, { onDelete: 'set null' }),
    toUserId: integer('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('ticket_transfers_cycle_id_idx').on(t.cycleId),
    index('ticket_transfers_company_id_at_idx').on(t.companyId, t.at),
    index('ticket_transfers_from_queue_id_idx').on(t.fromQueueId),
    index('ticket_transfers_to_queue_id_idx').on(t.toQueueId),
    index('ticket_transfers_from_user_id_idx').on(t.fromUserId),
    index('ticket_transfers_to_user_id_idx').on(t.toUserId),
  ],
);

/** A customer's 1–3 rating of a closed ticket (spec part 1 §9). */
export const userRatings = pgTable(
  'user_ratings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    ticketId: integer('ticket_id')
      .notNull()
      .references(() => tickets.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    rate: integer('rate').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('user_ratings_ticket_id_uq').on(t.ticketId),
    index('user_ratings_company_id_created_at_idx').on(t.companyId, t.createdAt),
    index('user_ratings_user_id_idx').on(t.userId),
    check('user_ratings_rate_ck', sql`${t.rate} between 1 and 3`),
  ],
);

/** What the product sent through a sandbox connection: the simulated customer's phone. */
export const sandboxOutbox = pgTable(
  'sandbox_outbox',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    whatsappId: integer('whatsapp_id')
      .notNull()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    number: text('number').notNull(),
    externalId: text('external_id').notNull(),
    body: text('body').notNull().default(''),
    mediaType: text('media_type'),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    quotedExternalId: text('quoted_external_id'),
    deleted: boolean('deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('sandbox_outbox_company_id_whatsapp_number_idx').on(t.companyId, t.whatsappId, t.number, t.createdAt),
    index('sandbox_outbox_whatsapp_id_idx').on(t.whatsappId),
    // A send carrying an idempotency key gets an external id derived from it: a repeat is a no-op.
    uniqueIndex('sandbox_outbox_external_id_uq').on(t.whatsappId, t.externalId),
  ],
);

// ---- Outbound engine (issue 20): one durable record per schedule / campaign recipient ----

/** One message of an outbound send: text, or a file with an optional caption. */
export interface OutboundItem {
  body: string;
  media?: OutgoingPayload['media'];
  /**
   * The body is a template whose message variables are filled when it goes out
   * (docs/architecture.md, "Message variables"): for the ticket's contact in a
   * conversation send, else for `contact` (a campaign's contact-list item).
   */
  template?: { contact?: { name: string; number: string; email: string } };
}

export const OUTBOUND_KINDS = ['schedule', 'campaign'] as const;
export const OUTBOUND_STATES = ['queued', 'sending', 'sent', 'delivered', 'failed', 'cancelled'] as const;

/**
 * Every schedule and every campaign recipient is a row here before anything reaches
 * a channel (ARCHITECTURE §3.7, §3.14); see apps/server/src/outbound/outbound.ts.
 */
export const outboundSends = pgTable(
  'outbound_sends',
  {
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    kind: text('kind', { enum: OUTBOUND_KINDS }).notNull(),
    /** The schedule's or campaign's id. */
    sourceId: integer('source_id').notNull(),
    /** Who it goes to within the source (a contact id or a number): unique per source. */
    recipient: text('recipient').notNull(),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    contactId: integer('contact_id').references(() => contacts.id, { onDelete: 'set null' }),
    /** Digits the channel sends to. */
    number: text('number').notNull(),
    /** Stored in the contact's ticket conversation (schedules) or sent without a ticket (campaigns). */
    conversation: boolean('conversation').notNull().default(false),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    /** The conversation's first message row of this send (conversation sends). */
    messageId: bigint('message_id', { mode: 'number' }),
    items: jsonb('items').$type<OutboundItem[]>().notNull().default([]),
    /** What the source needs back (a campaign's variant, ...). */
    details: jsonb('details').$type<Record<string, unknown>>().notNull().default({}),
    state: text('state', { enum: OUTBOUND_STATES }).notNull().default('queued'),
    /** Error code of a failed or cancelled send. */
    reason: text('reason'),
    attempts: integer('attempts').notNull().default(0),
    /** The channel's id of the first message (acks settle 'delivered' by it). */
    externalId: text('external_id'),
    ack: integer('ack').notNull().default(0),
    notBefore: timestamp('not_before', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    claimedAt: timestamp('claimed_at', { withTimezone: true, mode: 'date' }),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    deliveredAt: timestamp('delivered_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('outbound_sends_source_recipient_uq').on(t.companyId, t.kind, t.sourceId, t.recipient),
    // The dispatcher's look-up of a connection's due sends.
    index('outbound_sends_due_idx').on(t.whatsappId, t.notBefore, t.id).where(sql`${t.state} = 'queued'`),
    // The sweep's look-ups: due sends of every connection, claims a stopped node left.
    index('outbound_sends_queued_idx').on(t.notBefore).where(sql`${t.state} = 'queued'`),
    index('outbound_sends_sending_idx').on(t.claimedAt).where(sql`${t.state} = 'sending'`),
    index('outbound_sends_external_id_idx')
      .on(t.companyId, t.whatsappId, t.externalId)
      .where(sql`${t.externalId} is not null`),
    index('outbound_sends_whatsapp_id_idx').on(t.whatsappId),
    index('outbound_sends_contact_id_idx').on(t.contactId),
    index('outbound_sends_ticket_id_idx').on(t.ticketId),
    index('outbound_sends_message_id_idx').on(t.messageId),
  ],
);

/** A connection's pacing gate: when it may send next, and campaign sends since its last long pause. */
export const outboundPacing = pgTable(
  'outbound_pacing',
  {
    whatsappId: integer('whatsapp_id')
      .primaryKey()
      .references(() => whatsapps.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    nextAt: timestamp('next_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    sentCount: integer('sent_count').notNull().default(0),
    updatedAt: updatedAt(),
  },
  (t) => [index('outbound_pacing_company_id_idx').on(t.companyId)],
);

/** Campaign settings (spec part 2 §3): key/JSON-value pairs per company. */
export const campaignSettings = pgTable(
  'campaign_settings',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    key: text('key').notNull(),
    value: jsonb('value').$type<unknown>().notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex('campaign_settings_company_id_key_uq').on(t.companyId, t.key)],
);

export const SCHEDULE_STATUSES = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;

export const schedules = pgTable(
  'schedules',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    body: text('body').notNull(),
    contactId: integer('contact_id')
      .notNull()
      .references(() => contacts.id, { onDelete: 'cascade' }),
    userId: integer('user_id').references(() => users.id, { onDelete: 'set null' }),
    sendAt: timestamp('send_at', { withTimezone: true, mode: 'date' }).notNull(),
    sentAt: timestamp('sent_at', { withTimezone: true, mode: 'date' }),
    status: text('status', { enum: SCHEDULE_STATUSES }).notNull().default('PENDENTE'),
    /** Why it is ERRO (an error code). */
    reason: text('reason'),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    ticketId: integer('ticket_id').references(() => tickets.id, { onDelete: 'set null' }),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    mediaSize: integer('media_size'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('schedules_company_id_send_at_idx').on(t.companyId, t.sendAt, t.id),
    // The promotion of due schedules.
    index('schedules_pending_idx').on(t.sendAt).where(sql`${t.status} = 'PENDENTE'`),
    index('schedules_contact_id_idx').on(t.contactId),
    index('schedules_user_id_idx').on(t.userId),
    index('schedules_whatsapp_id_idx').on(t.whatsappId),
    index('schedules_ticket_id_idx').on(t.ticketId),
  ],
);

/** Contact lists (spec part 2 §2.8, §3): the audiences of campaigns. */
export const contactLists = pgTable(
  'contact_lists',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('contact_lists_company_id_name_idx').on(t.companyId, t.name, t.id)],
);

/** One person of a contact list; a number appears once per list. */
export const contactListItems = pgTable(
  'contact_list_items',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    contactListId: integer('contact_list_id')
      .notNull()
      .references(() => contactLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    number: text('number').notNull(),
    email: text('email').notNull().default(''),
    /** null until checked through a connection; then whether the number is on WhatsApp. */
    isWhatsappValid: boolean('is_whatsapp_valid'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('contact_list_items_list_number_key').on(t.contactListId, t.number),
    index('contact_list_items_list_name_idx').on(t.contactListId, t.name, t.id),
    index('contact_list_items_company_id_idx').on(t.companyId),
  ],
);

/** File lists (spec part 2 §2.11, §3): named files a campaign sends after its text. */
export const fileLists = pgTable(
  'file_lists',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    message: text('message').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index('file_lists_company_id_name_idx').on(t.companyId, t.name, t.id)],
);

/** One option of a file list: a name and, once uploaded, its file. */
export const fileListOptions = pgTable(
  'file_list_options',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    fileListId: integer('file_list_id')
      .notNull()
      .references(() => fileLists.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    path: text('path'),
    fileName: text('file_name'),
    mimeType: text('mime_type'),
    size: integer('size'),
    position: integer('position').notNull().default(0),
  },
  (t) => [index('file_list_options_file_list_id_idx').on(t.fileListId, t.position, t.id), index('file_list_options_company_id_idx').on(t.companyId)],
);

/** Campaign states (spec part 2 §4). */
export const CAMPAIGN_STATUSES = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;

/** Campaigns (spec part 2 §2.7, §3): one message (of up to 5 variants) to every contact of a list or a tag. */
export const campaigns = pgTable(
  'campaigns',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    name: text('name').notNull(),
    message1: text('message1').notNull().default(''),
    message2: text('message2').notNull().default(''),
    message3: text('message3').notNull().default(''),
    message4: text('message4').notNull().default(''),
    message5: text('message5').notNull().default(''),
    status: text('status', { enum: CAMPAIGN_STATUSES }).notNull().default('INATIVA'),
    scheduledAt: timestamp('scheduled_at', { withTimezone: true, mode: 'date' }),
    completedAt: timestamp('completed_at', { withTimezone: true, mode: 'date' }),
    whatsappId: integer('whatsapp_id').references(() => whatsapps.id, { onDelete: 'set null' }),
    contactListId: integer('contact_list_id').references(() => contactLists.id, { onDelete: 'set null' }),
    tagId: integer('tag_id').references(() => tags.id, { onDelete: 'set null' }),
    fileListId: integer('file_list_id').references(() => fileLists.id, { onDelete: 'set null' }),
    confirmation: boolean('confirmation').notNull().default(false),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    mediaMime: text('media_mime'),
    mediaSize: integer('media_size'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index('campaigns_company_id_name_idx').on(t.companyId, t.name, t.id),
    // The start of due campaigns.
    index('campaigns_due_idx').on(t.scheduledAt).where(sql`${t.status} = 'PROGRAMADA'`),
    index('campaigns_whatsapp_id_idx').on(t.whatsappId),
    index('campaigns_contact_list_id_idx').on(t.contactListId),
    index('campaigns_tag_id_idx').on(t.tagId),
    index('campaigns_file_list_id_idx').on(t.fileListId),
  ],
);

/**
 * Announcements (spec part 2 §2.9, §3): platform data like help videos, written by
 * super users and shown to every user of every company. The image lies in the media
 * folder of the company of the super user who uploaded it (`mediaPath`).
 */
export const announcements = pgTable(
  'announcements',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    title: text('title').notNull(),
    text: text('text').notNull(),
    priority: integer('priority').notNull().default(3),
    status: boolean('status').notNull().default(true),
    mediaPath: text('media_path'),
    mediaName: text('media_name'),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // The top bar: active ones, newest first.
    index('announcements_active_created_at_idx').on(t.createdAt, t.id).where(sql`${t.status}`),
    index('announcements_created_at_idx').on(t.createdAt, t.id),
    check('announcements_priority_ck', sql`${t.priority} between 1 and 3`),
  ],
);

/** When a user last opened the announcements popover: what is newer is unread. */
export const announcementReads = pgTable(
  'announcement_reads',
  {
    userId: integer('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    companyId: companyId(),
    seenAt: timestamp('seen_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [index('announcement_reads_company_id_idx').on(t.companyId)],
);

/** An internal chat between users of one company (spec part 2 §2.10, §3). */
export const chats = pgTable(
  'chats',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    uuid: text('uuid').notNull().default(sql`gen_random_uuid()::text`),
    title: text('title').notNull(),
    ownerId: integer('owner_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    lastMessage: text('last_message').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('chats_uuid_uq').on(t.uuid),
    index('chats_company_id_updated_at_idx').on(t.companyId, t.updatedAt),
    index('chats_owner_id_idx').on(t.ownerId),
  ],
);

/** A member of a chat with its unread count. */
export const chatUsers = pgTable(
  'chat_users',
  {
    companyId: companyId(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    unreads: integer('unreads').notNull().default(0),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.chatId, t.userId] }),
    // A user's chats (the list, the unread count).
    index('chat_users_company_id_user_id_idx').on(t.companyId, t.userId),
    index('chat_users_user_id_idx').on(t.userId),
  ],
);

/** A message of an internal chat; stored before it is broadcast to the members. */
export const chatMessages = pgTable(
  'chat_messages',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    chatId: integer('chat_id')
      .notNull()
      .references(() => chats.id, { onDelete: 'cascade' }),
    senderId: integer('sender_id').references(() => users.id, { onDelete: 'set null' }),
    message: text('message').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_chat_id_id_idx').on(t.chatId, t.id),
    index('chat_messages_company_id_idx').on(t.companyId),
    index('chat_messages_sender_id_idx').on(t.senderId).where(sql`${t.senderId} is not null`),
  ],
);

export type PlanRow = typeof plans.$inferSelect;
export type CampaignRow = typeof campaigns.$inferSelect;
export type FileListRow = typeof fileLists.$inferSelect;
export type FileListOptionRow = typeof fileListOptions.$inferSelect;
export type ContactListRow = typeof contactLists.$inferSelect;
export type ContactListItemRow = typeof contactListItems.$inferSelect;
export type HelpRow = typeof helps.$inferSelect;
export type AnnouncementRow = typeof announcements.$inferSelect;
export type ChatRow = typeof chats.$inferSelect;
export type ChatMessageRow = typeof chatMessages.$inferSelect;
export type CompanyRow = typeof companies.$inferSelect;
export type UserRow = typeof users.$inferSelect;
export type QueueRow = typeof queues.$inferSelect;
export type SettingRow = typeof settings.$inferSelect;
export type ContactRow = typeof contacts.$inferSelect;
export type TicketRow = typeof tickets.$inferSelect;
export type MessageRow = typeof messages.$inferSelect;
export type TagRow = typeof tags.$inferSelect;
export type WhatsappRow = typeof whatsapps.$inferSelect;
export type QueueOptionRow = typeof queueOptions.$inferSelect;
export type PromptRow = typeof prompts.$inferSelect;
export type QueueIntegrationRow = typeof queueIntegrations.$inferSelect;
export type OutboundSendRow = typeof outboundSends.$inferSelect;
export type ScheduleRecord = typeof schedules.$inferSelect;
export type HolidayPeriodRow = typeof holidayPeriods.$inferSelect;

/**
 * A company's bill for one period (spec part 2 §3 Invoice): one per company and due
 * date, so the daily job may run twice or on two nodes. Stored status is open or paid;
 * "expired" is how an open invoice past its due date is shown.
 */
export const invoices = pgTable(
  'invoices',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    planId: integer('plan_id').references(() => plans.id, { onDelete: 'set null' }),
    detail: text('detail').notNull(),
    /** Integer cents (DECISIONS.md §10), from the plan when the invoice was made. */
    valueCents: integer('value_cents').notNull(),
    /** A calendar date: the company's due date the invoice pays. */
    dueDate: date('due_date', { mode: 'string' }).notNull(),
    status: text('status', { enum: ['open', 'paid'] }).notNull().default('open'),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    uniqueIndex('invoices_company_id_due_date_uq').on(t.companyId, t.dueDate),
    index('invoices_plan_id_idx').on(t.planId),
    check('invoices_status_ck', sql`${t.status} in ('open', 'paid')`),
    check('invoices_value_ck', sql`${t.valueCents} > 0`),
  ],
);

/**
 * A charge made at a PSP for an invoice; the webhook finds it by txid. Despite the
 * table's name (it began with Pix only) it holds every method: `provider` is `pix`
 * (Efí's API Pix, or the fake PSP) or `asaas`, whose payment id is the txid; `method`
 * PIX, BOLETO or CREDIT_CARD. `copy_paste` is the Pix code or the boleto's digitable
 * line, `url` the boleto's PDF. Nothing of a card is kept here.
 */
export const pixCharges = pgTable(
  'pix_charges',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    invoiceId: integer('invoice_id')
      .notNull()
      .references(() => invoices.id, { onDelete: 'cascade' }),
    txid: text('txid').notNull(),
    amountCents: integer('amount_cents').notNull(),
    status: text('status').notNull().default('ATIVA'),
    copyPaste: text('copy_paste').notNull(),
    provider: text('provider', { enum: ['pix', 'asaas'] }).notNull().default('pix'),
    method: text('method', { enum: ['PIX', 'BOLETO', 'CREDIT_CARD'] }).notNull().default('PIX'),
    url: text('url'),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    endToEndId: text('end_to_end_id'),
    paidAt: timestamp('paid_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pix_charges_txid_uq').on(t.txid),
    check('pix_charges_provider_ck', sql`${t.provider} in ('pix', 'asaas')`),
    check('pix_charges_method_ck', sql`${t.method} in ('PIX', 'BOLETO', 'CREDIT_CARD')`),
    index('pix_charges_invoice_id_idx').on(t.invoiceId),
    index('pix_charges_company_id_idx').on(t.companyId),
  ],
);

/** A password reset code (DECISIONS.md §11): stored hashed, 30 minutes, single use, 5 tries. */
export const passwordResets = pgTable(
  'password_resets',
  {
    id: integer('id').primaryKey().generatedAlwaysAsIdentity(),
    companyId: companyId(),
    userId: integer('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true, mode: 'date' }).notNull(),
    attempts: integer('attempts').notNull().default(0),
    usedAt: timestamp('used_at', { withTimezone: true, mode: 'date' }),
    createdAt: createdAt(),
  },
  (t) => [index('password_resets_user_id_idx').on(t.userId), index('password_resets_company_id_idx').on(t.companyId)],
);

/**
 * Fixed-window request counters (login, sign-up, password reset), in the database
 * so that every API node counts the same window. Not tenant data: the key is a
 * limiter's name and a hash of what it counts (an IP, an e-mail), never the text.
 */
export const rateLimits = pgTable(
  'rate_limits',
  {
    key: text('key').primaryKey(),
    count: integer('count').notNull(),
    resetAt: timestamp('reset_at', { withTimezone: true, mode: 'date' }).notNull(),
  },
  (t) => [index('rate_limits_reset_at_idx').on(t.resetAt)],
);

export type InvoiceRow = typeof invoices.$inferSelect;
export type PixChargeRow = typeof pixCharges.$inferSelect;
