import { z } from 'zod';
import { calendarDate, id } from './validation.js';

/**
 * The audit log (issue 35): every action the product records, and the entity each one
 * is about. The web translates these names (`audit-log.i18n.ts`); the server records
 * only names from here (`platform/audit/audit-log.ts`). `webhook.*` and `two_factor.*`
 * are reserved for the event webhooks and two-factor sign-in.
 */
export const AUDIT_ACTIONS = {
  'auth.login': 'auth',
  'auth.login_failed': 'auth',
  'auth.password_reset_requested': 'auth',
  'auth.password_reset': 'auth',
  'user.created': 'user',
  'user.updated': 'user',
  'user.deleted': 'user',
  'queue.created': 'queue',
  'queue.updated': 'queue',
  'queue.deleted': 'queue',
  'connection.created': 'connection',
  'connection.updated': 'connection',
  'connection.deleted': 'connection',
  'setting.updated': 'setting',
  'integration.created': 'integration',
  'integration.updated': 'integration',
  'integration.deleted': 'integration',
  'api_key.created': 'api_key',
  'api_key.revoked': 'api_key',
  'webhook.created': 'webhook',
  'webhook.updated': 'webhook',
  'webhook.deleted': 'webhook',
  'two_factor.enabled': 'two_factor',
  'two_factor.disabled': 'two_factor',
  'two_factor.failed': 'two_factor',
  'plan.created': 'plan',
  'plan.updated': 'plan',
  'plan.deleted': 'plan',
  'company.created': 'company',
  'company.updated': 'company',
  'company.deleted': 'company',
  'invoice.checkout': 'invoice',
  'invoice.issued': 'invoice',
  'ticket.deleted': 'ticket',
  'export.contacts': 'export',
} as const;
export type AuditAction = keyof typeof AUDIT_ACTIONS;
export type AuditEntity = (typeof AUDIT_ACTIONS)[AuditAction];

export const AUDIT_ACTION_NAMES = Object.keys(AUDIT_ACTIONS) as AuditAction[];
export const AUDIT_ENTITIES = [...new Set(Object.values(AUDIT_ACTIONS))] as AuditEntity[];

/**
 * Every field an entry's changes may name, besides settings (whose changes name the setting's
 * key, `SETTING_KEYS`, or `upload.<ref>` for an uploaded file). The server's `changedFields` and
 * `recordedFields` take only these; the web labels each in pt, en and es.
 */
export const AUDIT_FIELDS = [
  // people and access
  'name', 'email', 'profile', 'allTicket', 'whatsappId', 'super', 'queueIds', 'password', 'resetBySuper',
  'prefix', 'scopes', 'expiresAt',
  // queues and connections
  'color', 'orderQueue', 'greetingMessage', 'outOfHoursMessage', 'ratingMessage', 'complationMessage', 'expiresInactiveMessage',
  'expiresTicket', 'timeUseBotQueues', 'maxUseBotQueues', 'timeToTransfer', 'transferQueueId', 'integrationId', 'promptId',
  'schedules', 'autoAssign', 'defaultMaxOpenTickets', 'slaFirstResponseMinutes', 'slaResolutionMinutes', 'slaWarnPercent',
  'mediaName', 'provider', 'isDefault', 'token', 'providerConfig', 'providerSecrets',
  // integrations and webhooks
  'type', 'projectName', 'language', 'urlN8N', 'typebotSlug', 'typebotExpires', 'typebotKeywordFinish', 'typebotKeywordRestart',
  'jsonContentSealed', 'signingSecretSealed', 'url', 'events', 'description', 'enabled',
  // plans, companies and invoices
  'users', 'connections', 'queues', 'valueCents', 'useCampaigns', 'useKanban', 'useOpenAi', 'useIntegrations', 'useSchedules',
  'useInternalChat', 'useExternalApi', 'planId', 'adminEmail', 'phone', 'status', 'dueDate', 'recurrence', 'timezone',
  'campaignsEnabled', 'created', 'method',
  // tickets and exports
  'contactId', 'queueId', 'userId', 'count',
] as const;
export type AuditField = (typeof AUDIT_FIELDS)[number];

/** How many entries one page of `GET /audit-logs` holds. */
export const AUDIT_LOG_PAGE_SIZE = 40;

/**
 * `GET /audit-logs`: filters, newest first. `from` and `to` are days in the company's
 * zone, both included. `companyId` is read for super users only (another company's log;
 * `0` the platform's own entries).
 */
export const AuditLogQuery = z.object({
  action: z.enum(AUDIT_ACTION_NAMES as [AuditAction, ...AuditAction[]], { error: 'validation.invalidValue' }).optional(),
  entity: z.enum(AUDIT_ENTITIES as [AuditEntity, ...AuditEntity[]], { error: 'validation.invalidValue' }).optional(),
  userId: id().optional(),
  from: calendarDate().optional(),
  to: calendarDate().optional(),
  companyId: z.coerce.number({ error: 'validation.invalidNumber' }).int('validation.invalidNumber').min(0, 'validation.invalidNumber').max(2_147_483_647, 'validation.invalidNumber').optional(),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type AuditLogQuery = z.infer<typeof AuditLogQuery>;

/** A changed field: its value before and after, or only that it changed (secrets, long texts). */
export const AuditChangesSchema = z.record(z.string(), z.unknown());

export const PresentedAuditLogSchema = z.object({
  id: z.number(),
  action: z.string(),
  userId: z.number().nullable(),
  userName: z.string().nullable(),
  apiKeyId: z.number().nullable(),
  entity: z.string(),
  entityId: z.string().nullable(),
  ip: z.string().nullable(),
  userAgent: z.string().nullable(),
  changes: AuditChangesSchema.nullable(),
  createdAt: z.string(),
});
export type PresentedAuditLog = z.output<typeof PresentedAuditLogSchema>;

export const AuditLogPageSchema = z.object({ entries: z.array(PresentedAuditLogSchema), hasMore: z.boolean() });
export type AuditLogPage = z.output<typeof AuditLogPageSchema>;
