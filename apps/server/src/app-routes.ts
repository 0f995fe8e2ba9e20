import type { FastifyInstance } from 'fastify';
import type { AppServices } from './app-services.js';
import { subscribeAuthEvents } from './modules/auth/auth.events.js';
import { registerAuthPrivateRoutes, registerAuthPublicRoutes } from './modules/auth/auth.routes.js';
import { registerSandboxRoutes } from './channels/sandbox/sandbox.routes.js';
import { registerCloudApiRoutes } from './channels/cloud-api/cloud-api.routes.js';
import { registerCloudApiWebhookRoutes } from './channels/cloud-api/cloud-api.webhook.routes.js';
import { registerTestSessionRoutes } from './channels/test-session.routes.js';
import { registerExternalApiRoutes } from './modules/external-api/external-api.routes.js';
import { registerCompanyRoutes } from './modules/companies/companies.routes.js';
import { subscribeContactEvents } from './modules/contacts/contacts.events.js';
import { registerContactRoutes } from './modules/contacts/contacts.routes.js';
import { subscribeConnectionEvents } from './modules/connections/connections.events.js';
import { registerConnectionRoutes } from './modules/connections/connections.routes.js';
import { registerHolidayPeriodRoutes } from './modules/connections/holiday-periods.routes.js';
import { registerReportRoutes } from './modules/reports/reports.routes.js';
import { registerTranscriptionRoutes } from './modules/messages/transcription.routes.js';
import { registerMessageRoutes } from './modules/messages/messages.routes.js';
import { registerPlanPublicRoutes, registerPlanRoutes } from './modules/plans/plans.routes.js';
import { registerHelpRoutes } from './modules/helps/helps.routes.js';
import { subscribeQuickMessageEvents } from './modules/quick-messages/quick-messages.events.js';
import { registerQuickMessageRoutes } from './modules/quick-messages/quick-messages.routes.js';
import { registerApiKeyRoutes } from './modules/api-keys/api-keys.routes.js';
import { registerAuditLogJobs } from './modules/audit-logs/audit-logs.jobs.js';
import { registerAuditLogRoutes } from './modules/audit-logs/audit-logs.routes.js';
import { subscribePushEvents } from './modules/push/push.events.js';
import { registerPushRoutes } from './modules/push/push.routes.js';
import { registerWebhookRoutes } from './modules/webhooks/webhooks.routes.js';
import { subscribeWebhookEvents } from './modules/webhooks/webhooks.events.js';
import { registerStickerPublicRoutes, registerStickerRoutes } from './modules/stickers/stickers.routes.js';
import { registerQueueRoutes } from './modules/queues/queues.routes.js';
import { subscribeQueueEvents } from './modules/queues/queues.events.js';
import { registerQueueOptionRoutes } from './modules/queue-options/queue-options.routes.js';
import { subscribePromptEvents } from './modules/prompts/prompts.events.js';
import { registerPromptRoutes } from './modules/prompts/prompts.routes.js';
import { subscribeIntegrationEvents } from './automation/integrations/integrations.events.js';
import { registerIntegrationRoutes } from './automation/integrations/integrations.routes.js';
import { registerAutomationJobs } from './automation/automation-jobs.js';
import { subscribeAutomationEvents } from './automation/automation.events.js';
import { registerOutboundJobs } from './outbound/outbound.jobs.js';
import { registerScheduleRoutes } from './outbound/schedules/schedules.routes.js';
import { subscribeScheduleEvents } from './outbound/schedules/schedules.events.js';
import { registerContactListRoutes } from './modules/contact-lists/contact-lists.routes.js';
import { subscribeContactListEvents } from './modules/contact-lists/contact-lists.events.js';
import { registerCampaignRoutes } from './outbound/campaigns/campaigns.routes.js';
import { subscribeCampaignEvents } from './outbound/campaigns/campaigns.events.js';
import { registerFileListRoutes } from './modules/file-lists/file-lists.routes.js';
import { subscribeFileListEvents } from './modules/file-lists/file-lists.events.js';
import { subscribeAnnouncementEvents } from './modules/announcements/announcements.events.js';
import { registerAnnouncementRoutes } from './modules/announcements/announcements.routes.js';
import { subscribeChatEvents } from './modules/chats/chats.events.js';
import { registerChatRoutes } from './modules/chats/chats.routes.js';
import { subscribeInvoiceEvents } from './modules/invoices/invoices.events.js';
import { registerInvoiceJobs } from './modules/invoices/invoices.jobs.js';
import { subscribeSlaEvents } from './modules/sla/sla.events.js';
import { registerSlaJobs } from './modules/sla/sla.jobs.js';
import { registerSlaRoutes } from './modules/sla/sla.routes.js';
import { registerInvoiceRoutes, registerPaymentWebhookRoutes } from './modules/invoices/invoices.routes.js';
import { registerPasswordResetRoutes } from './modules/password-reset/password-reset.routes.js';
import { registerSignupRoutes } from './modules/signup/signup.routes.js';
import { registerCampaignSettingRoutes } from './outbound/campaign-settings/campaign-settings.routes.js';
import { subscribeTagEvents } from './modules/tags/tags.events.js';
import { registerTagRoutes } from './modules/tags/tags.routes.js';
import { registerDashboardRoutes } from './modules/dashboard/dashboard.routes.js';
import { registerKanbanRoutes } from './modules/kanban/kanban.routes.js';
import { registerTicketNoteRoutes } from './modules/ticket-notes/ticket-notes.routes.js';
import { subscribeTicketEvents } from './modules/tickets/tickets.events.js';
import { subscribeAutoAssignEvents } from './modules/auto-assign/auto-assign.events.js';
import { registerTicketRoutes } from './modules/tickets/tickets.routes.js';
import { subscribeSettingEvents } from './modules/settings/settings.events.js';
import { registerSettingPublicRoutes, registerSettingRoutes } from './modules/settings/settings.routes.js';
import { registerTwoFactorRoutes } from './modules/two-factor/two-factor.routes.js';
import { subscribeTwoFactorEvents } from './modules/two-factor/two-factor.events.js';
import { subscribeUserEvents } from './modules/users/users.events.js';
import { registerUserRoutes } from './modules/users/users.routes.js';

type RegisterRoutes = (scope: FastifyInstance, services: AppServices) => void | Promise<void>;

/** Routes reachable without a session. */
export const publicModules: RegisterRoutes[] = [
  registerAuthPublicRoutes,
  registerPlanPublicRoutes,
  registerCloudApiWebhookRoutes,
  registerExternalApiRoutes,
  // SaaS lifecycle (issue 23): sign-up, password reset, the PSP's webhook (and the fake PSP)
  registerSignupRoutes,
  registerPasswordResetRoutes,
  registerPaymentWebhookRoutes,
  // whaticket v6's logo and sticker addresses (issue 32)
  registerSettingPublicRoutes,
  registerStickerPublicRoutes,
];

/** Routes behind the auth hook: each sees `req.ctx`. */
export const privateModules: RegisterRoutes[] = [
  registerAuthPrivateRoutes,
  registerUserRoutes,
  registerCompanyRoutes,
  registerPlanRoutes,
  registerHelpRoutes,
  registerSettingRoutes,
  registerQueueRoutes,
  registerQueueOptionRoutes,
  registerPromptRoutes,
  registerIntegrationRoutes,
  registerConnectionRoutes,
  registerHolidayPeriodRoutes,
  registerTicketRoutes,
  registerMessageRoutes,
  registerSandboxRoutes,
  registerCloudApiRoutes,
  // Only when NODE_ENV=test (browser tests play a WhatsApp session).
  registerTestSessionRoutes,
  registerContactRoutes,
  registerTicketNoteRoutes,
  registerTagRoutes,
  registerKanbanRoutes,
  registerQuickMessageRoutes,
  registerStickerRoutes,
  // outbound: schedules and campaign settings (issue 20)
  registerScheduleRoutes,
  registerCampaignSettingRoutes,
  registerContactListRoutes,
  registerCampaignRoutes,
  registerFileListRoutes,
  // dashboard (issue 21)
  registerDashboardRoutes,
  // whaticket v6's reports and its audio transcription (issue 32)
  registerReportRoutes,
  registerTranscriptionRoutes,
  // internal chat and announcements (issue 22)
  registerAnnouncementRoutes,
  registerChatRoutes,
  // invoices and checkout (issue 23)
  registerInvoiceRoutes,
  // company API keys (issue 34)
  registerApiKeyRoutes,
  // two-factor sign-in (issue 35)
  registerTwoFactorRoutes,
  // the audit log (issue 35)
  registerAuditLogRoutes,
  // Web Push (issue 35)
  registerPushRoutes,
  // event webhooks (issue 34 item 3)
  registerWebhookRoutes,
  // response-time targets (issue 35)
  registerSlaRoutes,
];

/** Each feature turns its domain events into realtime messages. */
export function subscribeModuleEvents(services: AppServices): void {
  subscribeQueueEvents(services);
  subscribePromptEvents(services);
  subscribeIntegrationEvents(services);
  // The automation's durable timers and webhook retries.
  registerAutomationJobs(services);
  // Its answers to an agent's change of a ticket (greeting, transfer notice, rating).
  subscribeAutomationEvents(services);
  // The outbound engine's dispatch and sweep (schedules, campaigns).
  registerOutboundJobs(services);
  subscribeAuthEvents(services);
  subscribeUserEvents(services);
  subscribeTwoFactorEvents(services);
  subscribeSettingEvents(services);
  subscribeConnectionEvents(services);
  subscribeTicketEvents(services);
  subscribeAutoAssignEvents(services, services.autoAssign);
  subscribeContactEvents(services);
  subscribeTagEvents(services);
  subscribeQuickMessageEvents(services);
  subscribeScheduleEvents(services);
  subscribeContactListEvents(services);
  subscribeCampaignEvents(services);
  subscribeFileListEvents(services);
  subscribeAnnouncementEvents(services);
  subscribeChatEvents(services);
  subscribeInvoiceEvents(services);
  subscribeWebhookEvents(services);
  // The billing job (due invoices).
  registerInvoiceJobs(services);
  // The audit log's retention sweep.
  registerAuditLogJobs(services);
  // Web Push: agents' browsers told of waiting tickets, customers' messages and chat messages.
  subscribePushEvents(services);
  // Response-time targets: the sweep that writes due instants and records breaches, and their notices.
  registerSlaJobs(services);
  subscribeSlaEvents(services);
}
