import type { PermissionSubject } from './permissions.js';

/**
 * Who may call each HTTP route at all (spec part 1 §6, part 2 §6): the least role
 * that passes the route's gate. The server attaches a guard from this table to
 * every private route (`apps/server/src/platform/http/route-roles.ts`), and the
 * role matrix suite calls every route as user, admin and super against it; a
 * route missing here fails that suite.
 *
 * - `public`: no session (login, webhooks, health, the external API's own token).
 * - `user`: any signed-in user. The route may still refuse some requests on finer
 *   rules (another user's record, a ticket outside the user's queues, a plan flag).
 * - `admin`: profile admin (what `requireAdmin` checks).
 * - `super`: the platform's super users only.
 *
 * Keys are `METHOD /path` as the server registers them; HEAD follows GET.
 */
export type RouteRole = 'public' | 'user' | 'admin' | 'super';

export const ROUTE_ROLES = {
  // platform
  'GET /health': 'public',
  'GET /version': 'public',
  'GET /metrics': 'public', // METRICS_TOKEN is the credential (404 without one)
  'GET /media/*': 'public', // the signature is the credential
  // the OpenAPI document of every route and its reference page (issue 34)
  'GET /openapi.json': 'public',
  'GET /api-docs': 'public',
  'GET /api-docs/:asset': 'public',
  // auth
  'POST /auth/login': 'public',
  'POST /auth/refresh_token': 'public',
  'DELETE /auth/logout': 'public', // the refresh cookie names the session
  'GET /auth/me': 'user',
  // two-factor sign-in (issue 35): the caller's own second factor; a super user resets someone's
  'GET /auth/2fa': 'user',
  'POST /auth/2fa/setup': 'user',
  'POST /auth/2fa/enable': 'user',
  'POST /auth/2fa/disable': 'user',
  'POST /users/:id/2fa/reset': 'super',
  // dashboard (issue 21)
  'GET /dashboard': 'admin',
  'GET /dashboard/ticketsUsers': 'admin',
  'GET /dashboard/ticketsDay': 'admin',
  'GET /dashboard/agentLoad': 'admin', // auto-assignment's load per agent (issue 35)
  'GET /messages-allMe': 'admin', // v6's dashboard count of messages
  // whaticket v6's reports (issue 32): its dashboard charts (admins), its tickets report (what each user sees)
  'GET /reports/appointmentsAtendent': 'admin',
  'GET /reports/departamentRatings': 'admin',
  'GET /reports/rushHour': 'admin',
  'GET /ticket/reports': 'user',
  'GET /messages/transcribeAudio/:fileName': 'user',
  // webhooks and the external API (their own credentials)
  'GET /cloud-api/webhook': 'public',
  'POST /cloud-api/webhook': 'public',
  'POST /api/messages/send': 'public',
  // plans: a global catalogue; the sign-up form lists it without a session
  'GET /plans/list': 'public',
  'GET /plans/register': 'public',
  'GET /settings/viewregister': 'public',
  'GET /settings/allowregister': 'public',
  'GET /settings/trial': 'public',
  'GET /settings/system-default-language': 'public',
  // whaticket v6's logo addresses (its login page shows them before anyone signs in)
  'GET /public/logotipos/:file': 'public',
  'GET /public/:companyDir/logotipos/:file': 'public',
  'GET /public/:companyDir/stickers/salvos/*': 'public',
  // SaaS lifecycle (issue 23): sign-up and password reset need no session; the PSP's
  // webhook has its secret and the charge fetched back; the fake PSP is a stand-in peer
  'POST /companies/cadastro': 'public',
  'GET /auth/options': 'public',
  'POST /forgetpassword/:email': 'public',
  'POST /resetpasswords/:email/:token/:newPassword': 'public',
  'POST /auth/reset-password': 'public',
  'POST /payments/pix/webhook/:secret': 'public',
  'POST /payments/pix/webhook/:secret/pix': 'public',
  'POST /fake-psp/oauth/token': 'public',
  'PUT /fake-psp/v2/cob/:txid': 'public',
  'GET /fake-psp/v2/cob/:txid': 'public',
  'GET /fake-psp/v2/loc/:id': 'public',
  'GET /fake-psp/v2/loc/:id/qrcode': 'public',
  'PUT /fake-psp/v2/webhook/:chave': 'public',
  'PUT /fake-psp/v2/pix/:e2eId/devolucao/:id': 'public',
  'POST /fake-psp/pay': 'public',
  'POST /payments/asaas/webhook': 'public',
  'POST /fake-asaas/v3/customers': 'public',
  'POST /fake-asaas/v3/payments': 'public',
  'GET /fake-asaas/v3/payments/:id': 'public',
  'GET /fake-asaas/v3/payments/:id/pixQrCode': 'public',
  'GET /fake-asaas/v3/payments/:id/identificationField': 'public',
  'GET /fake-asaas/v3/webhooks': 'public',
  'POST /fake-asaas/v3/webhooks': 'public',
  'PUT /fake-asaas/v3/webhooks/:id': 'public',
  'POST /fake-asaas/pay': 'public',
  // invoices and checkout: the company's admins (also while overdue)
  'GET /invoices/all': 'admin',
  'GET /invoices/list': 'admin',
  'GET /invoices/:id': 'admin',
  'GET /subscription': 'admin',
  'POST /subscription': 'admin',
  'POST /subscription/validate/webhook': 'super',
  'GET /plans/all': 'user',
  'GET /plans': 'user',
  'GET /plans/:id': 'user',
  'POST /plans': 'super',
  'PUT /plans/:id': 'super',
  'DELETE /plans/:id': 'super',
  // helps: platform-wide help videos; everyone reads, super users write
  'GET /helps': 'user',
  'GET /helps/list': 'user',
  'POST /helps': 'super',
  'PUT /helps/:id': 'super',
  'DELETE /helps/:id': 'super',
  // companies: a user sees its own company; the rest is the platform's
  'GET /companies': 'super',
  'GET /companies/list': 'super',
  'GET /companies/listPlan/:companyId': 'user',
  'GET /companies/:id': 'user',
  'POST /companies': 'super',
  'PUT /companies/:id': 'super',
  'PUT /companies/:id/schedules': 'admin',
  'DELETE /companies/:id': 'super',
  'POST /companies/:id/invoices': 'super',
  // users: lists feed the transfer dialog and filters; anyone edits itself
  'GET /users': 'user',
  'GET /users/list': 'user',
  'GET /users/:id': 'user',
  'POST /users': 'admin',
  'PUT /users/:id': 'user',
  'DELETE /users/:id': 'admin',
  'POST /users/set-language/:lang': 'user',
  'GET /users/me/language': 'user',
  // settings
  'GET /settings': 'user',
  'GET /settings/:key': 'user',
  'PUT /settings/:key': 'admin',
  'POST /settings/media-upload': 'super',
  'POST /settings/logo': 'super',
  'POST /settings/gerencianet-cert-upload': 'super',
  // queues, their chatbot options, prompts and integrations
  'GET /queue': 'user',
  'GET /queue/:id': 'user',
  'POST /queue': 'admin',
  'PUT /queue/:id': 'admin',
  'DELETE /queue/:id': 'admin',
  'POST /queue/:id/media-upload': 'admin',
  'DELETE /queue/:id/media-upload': 'admin',
  'GET /queue-options': 'user',
  'GET /queue-options/:id': 'user',
  'POST /queue-options': 'admin',
  'PUT /queue-options/:id': 'admin',
  'DELETE /queue-options/:id': 'admin',
  'POST /queue-options/:id/media-upload': 'admin',
  'DELETE /queue-options/:id/media-upload': 'admin',
  'GET /prompt': 'admin',
  'GET /prompt/:id': 'admin',
  'POST /prompt': 'admin',
  'PUT /prompt/:id': 'admin',
  'DELETE /prompt/:id': 'admin',
  'GET /queueIntegration': 'admin',
  'GET /queueIntegration/:id': 'admin',
  'POST /queueIntegration': 'admin',
  'POST /queueIntegration/testSession': 'admin',
  'PUT /queueIntegration/:id': 'admin',
  'DELETE /queueIntegration/:id': 'admin',
  // connections
  'GET /whatsapp': 'user',
  'GET /whatsapp/:id': 'user',
  'GET /whatsapp/:id/templates': 'user',
  'POST /whatsapp': 'admin',
  'PUT /whatsapp/:id': 'admin',
  'DELETE /whatsapp/:id': 'admin',
  'POST /whatsapp-restart': 'admin',
  'POST /whatsapp/:id/greeting-media': 'admin',
  'DELETE /whatsapp/:id/greeting-media': 'admin',
  'GET /whatsapp/:id/holiday-periods': 'admin',
  'POST /whatsapp/:id/holiday-periods': 'admin',
  'PUT /whatsapp/:id/holiday-periods/:periodId': 'admin',
  'DELETE /whatsapp/:id/holiday-periods/:periodId': 'admin',
  'POST /whatsappsession/:id': 'admin',
  'PUT /whatsappsession/:id': 'admin',
  'DELETE /whatsappsession/:id': 'admin',
  'POST /sandbox/:whatsappId/inbound': 'admin',
  'POST /sandbox/:whatsappId/read': 'admin',
  'POST /sandbox/:whatsappId/edit': 'admin',
  'POST /sandbox/:whatsappId/react': 'admin',
  'POST /sandbox/:whatsappId/revoke': 'admin',
  'GET /sandbox/:whatsappId/outbox': 'admin',
  'GET /sandbox/:whatsappId/conversation': 'admin',
  'POST /test/connections/:id/session': 'admin',
  // company API keys (issue 34): admins only, never a key (route-scopes.ts)
  'GET /api-keys': 'admin',
  'POST /api-keys': 'admin',
  'DELETE /api-keys/:id': 'admin',
  // the audit log (issue 35): admins read their company's, super users any company's; no route edits it
  'GET /audit-logs': 'admin',
  // Web Push (issue 35): each user's own browsers and choices
  'GET /push/vapid-public-key': 'user',
  'GET /push/settings': 'user',
  'PUT /push/settings': 'user',
  'POST /push/subscriptions': 'user',
  'DELETE /push/subscriptions': 'user',
  // event webhooks (issue 34 item 3): admins, or a key with webhooks:manage (route-scopes.ts)
  'GET /webhooks': 'admin',
  'POST /webhooks': 'admin',
  'PUT /webhooks/:id': 'admin',
  'DELETE /webhooks/:id': 'admin',
  'GET /webhooks/:id/deliveries': 'admin',
  'POST /webhooks/:id/deliveries/:deliveryId/retry': 'admin',
  // response-time targets (issue 35): the bell's own breaches, the dashboard's report
  'GET /sla/breaches': 'user',
  'GET /dashboard/sla': 'admin',
  // tickets and messages
  'GET /tickets': 'user',
  'GET /tickets/count': 'user',
  'GET /tickets/u/:uuid': 'user',
  'GET /tickets/:id': 'user',
  'POST /tickets': 'user',
  'PUT /tickets/:id': 'user',
  'POST /tickets/closeAll': 'user',
  'DELETE /tickets/:id': 'admin',
  // the kanban board (plan flag useKanban): lanes are tags; moving a card swaps its lane tag
  'GET /ticket/kanban': 'user',
  'DELETE /ticket-tags/:ticketId': 'user',
  'PUT /ticket-tags/:ticketId/:tagId': 'user',
  'GET /messages/:ticketId': 'user',
  'POST /messages/:ticketId': 'user',
  'DELETE /messages/:id': 'user',
  'POST /messages/:messageId/retry': 'user',
  'GET /messages/:ticketId/window': 'user',
  'POST /messages/:ticketId/template': 'user',
  // message actions (issue 32): edit, react, forward; a company's saved stickers
  'POST /messages/edit/:messageId': 'user',
  'PUT /messages/:id': 'user',
  'POST /messages/:messageId/reactions': 'user',
  'POST /message/forward': 'user',
  'GET /stickers': 'user',
  'POST /stickers': 'user',
  'DELETE /stickers/:stickerId': 'user',
  // contacts, notes, tags, quick messages
  'GET /contacts': 'user',
  'GET /contacts/list': 'user',
  'GET /contacts/export': 'user',
  'GET /contacts/:id': 'user',
  'POST /contacts': 'user',
  'PUT /contacts/:id': 'user',
  'DELETE /contacts/:id': 'admin',
  'POST /contacts/upload': 'user',
  'POST /contacts/import': 'user',
  'GET /ticket-notes/list': 'user',
  'POST /ticket-notes': 'user',
  'DELETE /ticket-notes/:id': 'user',
  'GET /tags': 'user',
  'GET /tags/list': 'user',
  'GET /tags/kanban': 'user',
  'GET /tags/:id': 'user',
  'POST /tags': 'user',
  'PUT /tags/:id': 'user',
  'DELETE /tags/:id': 'user',
  'POST /tags/sync': 'user',
  'GET /quick-messages': 'user',
  'GET /quick-messages/list': 'user',
  'GET /quick-messages/:id': 'user',
  'POST /quick-messages': 'user',
  'PUT /quick-messages/:id': 'user',
  'DELETE /quick-messages/:id': 'user',
  'POST /quick-messages/:id/media-upload': 'user',
  'DELETE /quick-messages/:id/media-upload': 'user',
  // outbound (issue 20, engine helper): schedules (plan flag useSchedules, any user of the
  // company) and campaign settings (campaign area: admins, plan flag useCampaigns)
  'GET /schedules': 'user',
  'GET /schedules/:id': 'user',
  'POST /schedules': 'user',
  'PUT /schedules/:id': 'user',
  'DELETE /schedules/:id': 'user',
  'POST /schedules/:id/media-upload': 'user',
  'DELETE /schedules/:id/media-upload': 'user',
  'GET /campaign-settings': 'admin',
  'POST /campaign-settings': 'admin',
  // contact lists (issue 20): campaign area, admins, plan flag useCampaigns
  'GET /contact-lists': 'admin',
  'GET /contact-lists/list': 'admin',
  'GET /contact-lists/:id': 'admin',
  'POST /contact-lists': 'admin',
  'PUT /contact-lists/:id': 'admin',
  'DELETE /contact-lists/:id': 'admin',
  'POST /contact-lists/:id/upload': 'admin',
  'GET /contact-list-items': 'admin',
  'GET /contact-list-items/:id': 'admin',
  'GET /contact-list-items/list': 'admin',
  'POST /contact-list-items': 'admin',
  'PUT /contact-list-items/:id': 'admin',
  'DELETE /contact-list-items/:id': 'admin',
  // campaigns (issue 20): campaign area, admins, plan flag useCampaigns
  'GET /campaigns': 'admin',
  'GET /campaigns/:id': 'admin',
  'POST /campaigns': 'admin',
  'PUT /campaigns/:id': 'admin',
  'DELETE /campaigns/:id': 'admin',
  'POST /campaigns/:id/cancel': 'admin',
  'POST /campaigns/:id/restart': 'admin',
  'POST /campaigns/:id/media-upload': 'admin',
  'DELETE /campaigns/:id/media-upload': 'admin',
  // file lists (issue 20): admins
  'GET /files': 'admin',
  'GET /files/:id': 'admin',
  'POST /files': 'admin',
  'PUT /files/:id': 'admin',
  'DELETE /files/:id': 'admin',
  'POST /files/uploadList/:id': 'admin',
  // announcements (issue 22): platform-wide; every user reads the active ones, super users write
  'GET /announcements': 'user',
  'GET /announcements/unread': 'user',
  'POST /announcements/read': 'user',
  'GET /announcements/:id': 'user',
  'POST /announcements': 'super',
  'PUT /announcements/:id': 'super',
  'DELETE /announcements/:id': 'super',
  'POST /announcements/:id/media-upload': 'super',
  'DELETE /announcements/:id/media-upload': 'super',
  // internal chat (issue 22): plan flag useInternalChat; members only, the owner edits and deletes
  'GET /chats': 'user',
  'GET /chats/unread': 'user',
  'GET /chats/:id': 'user',
  'POST /chats': 'user',
  'PUT /chats/:id': 'user',
  'DELETE /chats/:id': 'user',
  'POST /chats/:id/leave': 'user',
  'POST /chats/:id/read': 'user',
  'GET /chats/:id/messages': 'user',
  'POST /chats/:id/messages': 'user',
} as const satisfies Record<string, RouteRole>;

export type RouteKey = keyof typeof ROUTE_ROLES;

/** The table's key of a registered route (HEAD is answered by the GET route). */
export function routeKey(method: string, url: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${url}`;
}

/** The least role of a route, or undefined when the table does not know it. */
export function routeRole(key: string): RouteRole | undefined {
  return (ROUTE_ROLES as Record<string, RouteRole>)[key];
}

/** Whether a signed-in subject passes a role gate. */
export function meetsRouteRole(subject: PermissionSubject, role: RouteRole): boolean {
  switch (role) {
    case 'public':
    case 'user':
      return true;
    case 'admin':
      return subject.profile === 'admin';
    case 'super':
      return subject.super;
  }
}
