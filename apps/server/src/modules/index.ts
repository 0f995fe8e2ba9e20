import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../app.js';
import { subscribeAuthEvents } from './auth/auth.events.js';
import { registerAuthPrivateRoutes, registerAuthPublicRoutes } from './auth/auth.routes.js';
import { registerSandboxRoutes } from '../channels/sandbox/sandbox.routes.js';
import { registerCloudApiRoutes } from '../channels/cloud-api/cloud-api.routes.js';
import { registerCloudApiWebhookRoutes } from '../channels/cloud-api/cloud-api.webhook.routes.js';
import { registerTestSessionRoutes } from '../channels/test-session.routes.js';
import { registerExternalApiRoutes } from './external-api/external-api.routes.js';
import { registerCompanyRoutes } from './companies/companies.routes.js';
import { subscribeContactEvents } from './contacts/contacts.events.js';
import { registerContactRoutes } from './contacts/contacts.routes.js';
import { subscribeConnectionEvents } from './connections/connections.events.js';
import { registerConnectionRoutes } from './connections/connections.routes.js';
import { registerMessageRoutes } from './messages/messages.routes.js';
import { registerPlanPublicRoutes, registerPlanRoutes } from './plans/plans.routes.js';
import { registerHelpRoutes } from './helps/helps.routes.js';
import { subscribeQuickMessageEvents } from './quick-messages/quick-messages.events.js';
import { registerQuickMessageRoutes } from './quick-messages/quick-messages.routes.js';
import { registerQueueRoutes } from './queues/queues.routes.js';
import { subscribeQueueEvents } from './queues/queues.events.js';
import { registerQueueOptionRoutes } from './queue-options/queue-options.routes.js';
import { subscribePromptEvents } from './prompts/prompts.events.js';
import { registerPromptRoutes } from './prompts/prompts.routes.js';
import { subscribeIntegrationEvents } from '../automation/integrations/integrations.events.js';
import { registerIntegrationRoutes } from '../automation/integrations/integrations.routes.js';
import { registerAutomationJobs } from '../automation/automation-jobs.js';
import { subscribeAutomationEvents } from '../automation/automation.events.js';
import { registerOutboundJobs } from '../outbound/outbound.js';
import { registerScheduleRoutes, subscribeScheduleEvents } from '../outbound/schedules/schedules.routes.js';
import { registerContactListRoutes, subscribeContactListEvents } from './contact-lists/contact-lists.routes.js';
import { registerCampaignRoutes, subscribeCampaignEvents } from '../outbound/campaigns/campaigns.routes.js';
import { registerFileListRoutes, subscribeFileListEvents } from './file-lists/file-lists.routes.js';
import { subscribeAnnouncementEvents } from './announcements/announcements.events.js';
import { registerAnnouncementRoutes } from './announcements/announcements.routes.js';
import { subscribeChatEvents } from './chats/chats.events.js';
import { registerChatRoutes } from './chats/chats.routes.js';
import { subscribeInvoiceEvents } from './invoices/invoices.events.js';
import { registerInvoiceRoutes, registerPaymentWebhookRoutes } from './invoices/invoices.routes.js';
import { registerPasswordResetRoutes } from './password-reset/password-reset.routes.js';
import { registerSignupRoutes } from './signup/signup.routes.js';
import { registerCampaignSettingRoutes } from '../outbound/campaign-settings/campaign-settings.routes.js';
import { subscribeTagEvents } from './tags/tags.events.js';
import { registerTagRoutes } from './tags/tags.routes.js';
import { registerDashboardRoutes } from './dashboard/dashboard.routes.js';
import { registerKanbanRoutes } from './kanban/kanban.routes.js';
import { registerTicketNoteRoutes } from './ticket-notes/ticket-notes.routes.js';
import { subscribeTicketEvents } from './tickets/tickets.events.js';
import { registerTicketRoutes } from './tickets/tickets.routes.js';
import { subscribeSettingEvents } from './settings/settings.events.js';
import { registerSettingRoutes } from './settings/settings.routes.js';
import { subscribeUserEvents } from './users/users.events.js';
import { registerUserRoutes } from './users/users.routes.js';

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
  // outbound: schedules and campaign settings (issue 20)
  registerScheduleRoutes,
  registerCampaignSettingRoutes,
  registerContactListRoutes,
  registerCampaignRoutes,
  registerFileListRoutes,
  // dashboard (issue 21)
  registerDashboardRoutes,
  // internal chat and announcements (issue 22)
  registerAnnouncementRoutes,
  registerChatRoutes,
  // invoices and checkout (issue 23)
  registerInvoiceRoutes,
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
  subscribeSettingEvents(services);
  subscribeConnectionEvents(services);
  subscribeTicketEvents(services);
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
}
