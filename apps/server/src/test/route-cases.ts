import type { RouteKey } from '@atende/shared';
import { buildPixBrCode } from '../platform/payments/brcode.js';
import type { RouteFixture } from './route-fixtures.js';

/**
 * How to call each registered route with a fixture's ids (path, query and body),
 * shared by the cross-tenant probe (the fixture is another company's) and the
 * role matrix (the fixture is the caller's company's). Its keys are exactly those of
 * `ROUTE_ROLES` (packages/shared), checked by the compiler; a route registered
 * without an entry fails both suites. Adding a route means one line there and one here.
 *
 * `deny`: with another company's ids the route must answer 403 or 404.
 * `open`: the route names no other company's record (a list, a create, the
 * caller's own session); it may succeed, but must show nothing of the other
 * company and change nothing of it.
 */
export interface Probe {
  url: string;
  body?: unknown;
  /** Sent as multipart/form-data with a small PNG named `file`. */
  file?: boolean;
  /** Sent without the caller's bearer token (public routes with their own credential). */
  anonymous?: boolean;
}

export interface RouteCase {
  probe: (f: RouteFixture) => Probe;
  tenant: 'deny' | 'open';
  /** The call ends the caller's session: the suites give it a session of its own. */
  ownSession?: boolean;
}

type ProbeOf = (f: RouteFixture) => Probe | string;
const probeOf = (of: ProbeOf) => (f: RouteFixture) => {
  const probe = of(f);
  return typeof probe === 'string' ? { url: probe } : probe;
};
const deny = (of: ProbeOf, extra: Partial<RouteCase> = {}): RouteCase => ({ probe: probeOf(of), tenant: 'deny', ...extra });
const open = (of: ProbeOf, extra: Partial<RouteCase> = {}): RouteCase => ({ probe: probeOf(of), tenant: 'open', ...extra });
const call = (url: string, body?: unknown): Probe => ({ url, body });
const upload = (url: string): Probe => ({ url, file: true });
const randomColor = () => `#${Math.floor(Math.random() * 0xffffff).toString(16).padStart(6, '0')}`;
const q = (f: RouteFixture) => encodeURIComponent(f.marker);

/** Keys of the right shape; nothing is ever sent to a probe's endpoint (its host is `.invalid`). */
const PROBE_PUSH_KEYS = { p256dh: `B${'A'.repeat(86)}`, auth: 'A'.repeat(22) };
const WEEK = [{ weekday: 'Segunda-feira', weekdayEn: 'monday', startTime: '08:00', endTime: '18:00' }];
const LONG_PROMPT = 'You are a helpful assistant who answers the customers of this company politely.';

export const ROUTE_CASES: Record<RouteKey, RouteCase> = {
  // platform and public routes (their own credentials)
  'GET /health': open(() => '/health'),
  'GET /version': open(() => '/version'),
  'GET /openapi.json': open(() => ({ url: '/openapi.json', anonymous: true })),
  'GET /api-docs': open(() => ({ url: '/api-docs', anonymous: true })),
  'GET /api-docs/:asset': open(() => ({ url: '/api-docs/viewer.js', anonymous: true })),
  'GET /metrics': open(() => ({ url: '/metrics', anonymous: true })),
  'GET /media/*': deny((f) => ({ url: `/media/${f.ownCompanyId}/2026-01/probe.png?expires=9999999999&signature=${'0'.repeat(64)}`, anonymous: true })),
  'POST /auth/login': deny(() => ({ url: '/auth/login', body: { email: 'nobody@example.com', password: 'Wrong123!' }, anonymous: true })),
  'POST /auth/refresh_token': deny(() => ({ url: '/auth/refresh_token', anonymous: true })),
  'GET /cloud-api/webhook': deny(() => ({ url: '/cloud-api/webhook?hub.mode=subscribe&hub.verify_token=probe&hub.challenge=1', anonymous: true })),
  'POST /cloud-api/webhook': deny((f) => ({ url: '/cloud-api/webhook', body: { object: 'whatsapp_business_account', entry: [{ id: String(f.connectionId), changes: [] }] }, anonymous: true })),
  'POST /api/messages/send': deny((f) => call('/api/messages/send', { number: f.contactNumber, body: 'probe' })),
  'GET /plans/list': open(() => '/plans/list'),
  'GET /plans/register': open(() => '/plans/register'),
  'GET /settings/viewregister': open(() => ({ url: '/settings/viewregister', anonymous: true })),
  'GET /settings/allowregister': open(() => ({ url: '/settings/allowregister', anonymous: true })),
  'GET /settings/trial': open(() => ({ url: '/settings/trial', anonymous: true })),
  'GET /settings/system-default-language': open(() => ({ url: '/settings/system-default-language', anonymous: true })),
  'GET /public/logotipos/:file': open(() => ({ url: '/public/logotipos/login.png', anonymous: true })),
  'GET /public/:companyDir/logotipos/:file': open((f) => ({ url: `/public/company${f.companyId}/logotipos/logo.png`, anonymous: true })),
  // SaaS lifecycle (issue 23)
  'POST /companies/cadastro': open((f) => ({ url: '/companies/cadastro', body: { name: 'Probe Co', email: `probe.${f.marker.toLowerCase()}@example.com`, phone: '11987654321', password: 'Probe123!', planId: f.planId }, anonymous: true })),
  'GET /auth/options': open(() => ({ url: '/auth/options', anonymous: true })),
  'POST /forgetpassword/:email': open(() => ({ url: '/forgetpassword/nobody%40example.com', anonymous: true })),
  'POST /resetpasswords/:email/:token/:newPassword': deny(() => ({ url: '/resetpasswords/nobody%40example.com/123456/Probe123!', anonymous: true })),
  'POST /auth/reset-password': deny(() => ({ url: '/auth/reset-password', body: { email: 'nobody@example.com', token: '123456', newPassword: 'Probe123!' }, anonymous: true })),
  'POST /payments/pix/webhook/:secret': deny(() => ({ url: `/payments/pix/webhook/${'x'.repeat(43)}`, body: { pix: [] }, anonymous: true })),
  'POST /payments/pix/webhook/:secret/pix': deny(() => ({ url: `/payments/pix/webhook/${'x'.repeat(43)}/pix`, body: { pix: [] }, anonymous: true })),
  'POST /fake-psp/oauth/token': deny(() => ({ url: '/fake-psp/oauth/token', body: { grant_type: 'client_credentials' }, anonymous: true })),
  'PUT /fake-psp/v2/cob/:txid': deny(() => ({ url: `/fake-psp/v2/cob/${'a'.repeat(30)}`, body: {}, anonymous: true })),
  'GET /fake-psp/v2/cob/:txid': deny(() => ({ url: `/fake-psp/v2/cob/${'a'.repeat(30)}`, anonymous: true })),
  'GET /fake-psp/v2/loc/:id': deny(() => ({ url: '/fake-psp/v2/loc/1', anonymous: true })),
  'GET /fake-psp/v2/loc/:id/qrcode': deny(() => ({ url: '/fake-psp/v2/loc/1/qrcode', anonymous: true })),
  'PUT /fake-psp/v2/webhook/:chave': deny(() => ({ url: '/fake-psp/v2/webhook/probe', body: { webhookUrl: 'http://127.0.0.1:9/x' }, anonymous: true })),
  'PUT /fake-psp/v2/pix/:e2eId/devolucao/:id': deny(() => ({ url: '/fake-psp/v2/pix/E00000000202611270000ABCDEFGHIJK/devolucao/R1', body: { valor: '1.00' }, anonymous: true })),
  'POST /fake-psp/pay': deny(() => ({ url: '/fake-psp/pay', body: { pixCopiaECola: buildPixBrCode({ url: 'localhost/fake-psp/v2/loc/999999', merchantName: 'Probe', merchantCity: 'Probe' }) }, anonymous: true })),
  'POST /payments/asaas/webhook': deny(() => ({ url: '/payments/asaas/webhook', body: { event: 'PAYMENT_RECEIVED', payment: { id: 'pay_probe' } }, anonymous: true })),
  // The fake Asaas's API needs an API key (`access_token`): without one, 401.
  'POST /fake-asaas/v3/customers': deny(() => ({ url: '/fake-asaas/v3/customers', body: { name: 'Probe', cpfCnpj: '24971563792' }, anonymous: true })),
  'POST /fake-asaas/v3/payments': deny(() => ({ url: '/fake-asaas/v3/payments', body: {}, anonymous: true })),
  'GET /fake-asaas/v3/payments/:id': deny(() => ({ url: '/fake-asaas/v3/payments/pay_probe', anonymous: true })),
  'GET /fake-asaas/v3/payments/:id/pixQrCode': deny(() => ({ url: '/fake-asaas/v3/payments/pay_probe/pixQrCode', anonymous: true })),
  'GET /fake-asaas/v3/payments/:id/identificationField': deny(() => ({ url: '/fake-asaas/v3/payments/pay_probe/identificationField', anonymous: true })),
  'GET /fake-asaas/v3/webhooks': deny(() => ({ url: '/fake-asaas/v3/webhooks', anonymous: true })),
  'POST /fake-asaas/v3/webhooks': deny(() => ({ url: '/fake-asaas/v3/webhooks', body: {}, anonymous: true })),
  'PUT /fake-asaas/v3/webhooks/:id': deny(() => ({ url: '/fake-asaas/v3/webhooks/probe', body: {}, anonymous: true })),
  'POST /fake-asaas/pay': deny(() => ({ url: '/fake-asaas/pay', body: { id: 'pay_probe' }, anonymous: true })),
  // session
  'DELETE /auth/logout': open(() => '/auth/logout', { ownSession: true }),
  'GET /auth/me': open(() => '/auth/me'),
  // two-factor sign-in (issue 35): the caller's own second factor; a super user resets another user's
  'GET /auth/2fa': open(() => '/auth/2fa'),
  'POST /auth/2fa/setup': open(() => call('/auth/2fa/setup')),
  'POST /auth/2fa/enable': open(() => call('/auth/2fa/enable', { code: '000000' })),
  'POST /auth/2fa/disable': open(() => call('/auth/2fa/disable', { password: 'Probe123!' })),
  'POST /users/:id/2fa/reset': deny((f) => call(`/users/${f.userId}/2fa/reset`)),
  // plans (a global catalogue)
  'GET /plans/all': open(() => '/plans/all'),
  'GET /plans': open((f) => `/plans?searchParam=${q(f)}`),
  'GET /plans/:id': open((f) => `/plans/${f.planId}`),
  'POST /plans': open(() => call('/plans', { name: `Probe plan ${Math.random().toString(36).slice(2, 8)}` })),
  'PUT /plans/:id': deny((f) => call(`/plans/${f.planId}`, { users: 999 })),
  'DELETE /plans/:id': deny((f) => `/plans/${f.planId}`),
  // helps (platform-wide help videos; only super users write)
  'GET /helps': open(() => '/helps'),
  'GET /helps/list': open(() => '/helps/list'),
  'POST /helps': open(() => call('/helps', { title: 'Probe help', video: 'probeVideo1' })),
  'PUT /helps/:id': deny((f) => call(`/helps/${f.helpId}`, { title: 'Probe edit' })),
  'DELETE /helps/:id': deny((f) => `/helps/${f.helpId}`),
  // companies
  'GET /companies': open((f) => `/companies?searchParam=${q(f)}`),
  'GET /companies/list': open(() => '/companies/list'),
  'GET /companies/listPlan/:companyId': deny((f) => `/companies/listPlan/${f.ownCompanyId}`),
  'GET /companies/:id': deny((f) => `/companies/${f.ownCompanyId}`),
  'POST /companies': open((f) => call('/companies', { name: `Probe company ${Math.random().toString(36).slice(2, 8)}`, planId: f.planId })),
  'PUT /companies/:id': deny((f) => call(`/companies/${f.companyId}`, { name: 'Probe renamed' })),
  'PUT /companies/:id/schedules': deny((f) => call(`/companies/${f.ownCompanyId}/schedules`, { schedules: WEEK })),
  'DELETE /companies/:id': deny((f) => `/companies/${f.companyId}`),
  'POST /companies/:id/invoices': deny((f) => call(`/companies/${f.companyId}/invoices`)),
  // users
  'GET /users': open((f) => `/users?searchParam=${q(f)}`),
  'GET /users/list': open((f) => `/users/list?companyId=${f.ownCompanyId}`),
  'GET /users/:id': deny((f) => `/users/${f.userId}`),
  'POST /users': deny((f) => call('/users', { name: 'Probe user', email: `probe-${Math.random().toString(36).slice(2, 8)}@example.com`, password: 'Probe123!', queueIds: [f.queueId] })),
  'PUT /users/:id': deny((f) => call(`/users/${f.selfId}`, { name: 'Probe renamed' })),
  'DELETE /users/:id': deny((f) => `/users/${f.userId}`),
  'POST /users/set-language/:lang': open(() => '/users/set-language/en'),
  'GET /users/me/language': open(() => '/users/me/language'),
  // settings
  'GET /settings': open(() => '/settings'),
  'GET /settings/:key': open(() => '/settings/userRating'),
  'PUT /settings/:key': open(() => call('/settings/userRating', { value: 'disabled' })),
  'POST /settings/media-upload': open(() => upload('/settings/media-upload?ref=login')),
  'POST /settings/logo': open(() => upload('/settings/logo')),
  'POST /settings/gerencianet-cert-upload': open(() => upload('/settings/gerencianet-cert-upload')),
  // queues and their bots
  'GET /queue': open((f) => `/queue?companyId=${f.ownCompanyId}`),
  'GET /queue/:id': deny((f) => `/queue/${f.queueId}`),
  'POST /queue': deny((f) => call('/queue', { name: 'Probe queue', color: randomColor(), integrationId: f.integrationId })),
  'PUT /queue/:id': deny((f) => call(`/queue/${f.queueId}`, { name: 'Probe renamed' })),
  'DELETE /queue/:id': deny((f) => `/queue/${f.queueId}`),
  'POST /queue/:id/media-upload': deny((f) => upload(`/queue/${f.queueId}/media-upload`)),
  'DELETE /queue/:id/media-upload': deny((f) => `/queue/${f.queueId}/media-upload`),
  'GET /queue-options': deny((f) => `/queue-options?queueId=${f.queueId}`),
  'GET /queue-options/:id': deny((f) => `/queue-options/${f.queueOptionId}`),
  'POST /queue-options': deny((f) => call('/queue-options', { queueId: f.queueId, title: 'Probe option' })),
  'PUT /queue-options/:id': deny((f) => call(`/queue-options/${f.queueOptionId}`, { title: 'Probe renamed' })),
  'DELETE /queue-options/:id': deny((f) => `/queue-options/${f.queueOptionId}`),
  'POST /queue-options/:id/media-upload': deny((f) => upload(`/queue-options/${f.queueOptionId}/media-upload`)),
  'DELETE /queue-options/:id/media-upload': deny((f) => `/queue-options/${f.queueOptionId}/media-upload`),
  'GET /prompt': open(() => '/prompt'),
  'GET /prompt/:id': deny((f) => `/prompt/${f.promptId}`),
  'POST /prompt': deny((f) => call('/prompt', { name: 'Probe prompt', prompt: LONG_PROMPT, apiKey: 'sk-probe', queueId: f.queueId })),
  'PUT /prompt/:id': deny((f) => call(`/prompt/${f.promptId}`, { name: 'Probe renamed' })),
  'DELETE /prompt/:id': deny((f) => `/prompt/${f.promptId}`),
  'GET /queueIntegration': open((f) => `/queueIntegration?searchParam=${q(f)}`),
  'GET /queueIntegration/:id': deny((f) => `/queueIntegration/${f.integrationId}`),
  'POST /queueIntegration': open(() => call('/queueIntegration', { type: 'webhook', name: `probe-${Math.random().toString(36).slice(2, 8)}`, urlN8N: 'https://hooks.example.com/probe' })),
  'POST /queueIntegration/testSession': deny((f) => call('/queueIntegration/testSession', { id: f.integrationId, projectName: 'probe' })),
  'PUT /queueIntegration/:id': deny((f) => call(`/queueIntegration/${f.integrationId}`, { name: 'probe-renamed' })),
  'DELETE /queueIntegration/:id': deny((f) => `/queueIntegration/${f.integrationId}`),
  // connections
  'GET /whatsapp': open((f) => `/whatsapp?companyId=${f.ownCompanyId}`),
  'GET /whatsapp/:id': deny((f) => `/whatsapp/${f.connectionId}`),
  'GET /whatsapp/:id/templates': deny((f) => `/whatsapp/${f.connectionId}/templates`),
  'POST /whatsapp': deny((f) => call('/whatsapp', { name: `Probe ${Math.random().toString(36).slice(2, 8)}`, provider: 'sandbox', queueIds: [f.queueId] })),
  'PUT /whatsapp/:id': deny((f) => call(`/whatsapp/${f.connectionId}`, { name: 'Probe renamed' })),
  'DELETE /whatsapp/:id': deny((f) => `/whatsapp/${f.connectionId}`),
  'POST /whatsapp-restart': open(() => call('/whatsapp-restart')),
  'POST /whatsapp/:id/greeting-media': deny((f) => upload(`/whatsapp/${f.connectionId}/greeting-media`)),
  'DELETE /whatsapp/:id/greeting-media': deny((f) => `/whatsapp/${f.connectionId}/greeting-media`),
  'GET /whatsapp/:id/holiday-periods': deny((f) => `/whatsapp/${f.connectionId}/holiday-periods`),
  'POST /whatsapp/:id/holiday-periods': deny((f) => call(`/whatsapp/${f.connectionId}/holiday-periods`, { startDate: '2020-01-01', endDate: '2020-01-02', message: 'Probe' })),
  'PUT /whatsapp/:id/holiday-periods/:periodId': deny((f) => call(`/whatsapp/${f.connectionId}/holiday-periods/${f.holidayPeriodId}`, { message: 'Probe edit' })),
  'DELETE /whatsapp/:id/holiday-periods/:periodId': deny((f) => `/whatsapp/${f.connectionId}/holiday-periods/${f.holidayPeriodId}`),
  'POST /whatsappsession/:id': deny((f) => `/whatsappsession/${f.connectionId}`),
  'PUT /whatsappsession/:id': deny((f) => `/whatsappsession/${f.connectionId}`),
  'DELETE /whatsappsession/:id': deny((f) => `/whatsappsession/${f.connectionId}`),
  'POST /sandbox/:whatsappId/inbound': deny((f) => call(`/sandbox/${f.connectionId}/inbound`, { from: f.contactNumber, body: 'probe' })),
  'POST /sandbox/:whatsappId/read': deny((f) => call(`/sandbox/${f.connectionId}/read`, { number: f.contactNumber })),
  'POST /sandbox/:whatsappId/edit': deny((f) => call(`/sandbox/${f.connectionId}/edit`, { id: f.messageExternalId, body: 'probe' })),
  'POST /sandbox/:whatsappId/react': deny((f) => call(`/sandbox/${f.connectionId}/react`, { id: f.messageExternalId, from: f.contactNumber, emoji: '👍' })),
  'POST /sandbox/:whatsappId/revoke': deny((f) => call(`/sandbox/${f.connectionId}/revoke`, { id: f.messageExternalId })),
  'GET /sandbox/:whatsappId/outbox': deny((f) => `/sandbox/${f.connectionId}/outbox?number=${f.contactNumber}`),
  'GET /sandbox/:whatsappId/conversation': deny((f) => `/sandbox/${f.connectionId}/conversation?number=${f.contactNumber}`),
  'POST /test/connections/:id/session': deny((f) => call(`/test/connections/${f.connectionId}/session`, { status: 'CONNECTED' })),
  // tickets and messages
  'GET /tickets': open((f) => `/tickets?searchParam=${q(f)}&showAll=true&queueIds=${encodeURIComponent(JSON.stringify([f.queueId]))}`),
  'GET /tickets/count': open((f) => `/tickets/count?showAll=true&queueIds=${encodeURIComponent(JSON.stringify([f.queueId]))}`),
  'GET /tickets/u/:uuid': deny((f) => `/tickets/u/${f.ticketUuid}`),
  'GET /tickets/:id': deny((f) => `/tickets/${f.ticketId}`),
  'POST /tickets': deny((f) => call('/tickets', { contactId: f.contactId, queueId: f.queueId, status: 'open' })),
  'PUT /tickets/:id': deny((f) => call(`/tickets/${f.ticketId}`, { status: 'closed' })),
  'POST /tickets/closeAll': open((f) => call('/tickets/closeAll', { status: 'open', selectedQueueIds: [f.queueId] })),
  'DELETE /tickets/:id': deny((f) => `/tickets/${f.ticketId}`),
  'GET /ticket/kanban': open((f) => `/ticket/kanban?showAll=true&queueIds=${encodeURIComponent(JSON.stringify([f.queueId]))}`),
  'DELETE /ticket-tags/:ticketId': deny((f) => `/ticket-tags/${f.ticketId}`),
  'PUT /ticket-tags/:ticketId/:tagId': deny((f) => call(`/ticket-tags/${f.ticketId}/${f.tagId}`, {})),
  'GET /messages/:ticketId': deny((f) => `/messages/${f.ticketId}`),
  'POST /messages/:ticketId': deny((f) => call(`/messages/${f.ticketId}`, { body: 'probe' })),
  'DELETE /messages/:id': deny((f) => `/messages/${f.messageId}`),
  'POST /messages/:messageId/retry': deny((f) => call(`/messages/${f.messageId}/retry`, {})),
  'GET /messages/:ticketId/window': deny((f) => `/messages/${f.ticketId}/window`),
  'POST /messages/edit/:messageId': deny((f) => call(`/messages/edit/${f.messageId}`, { body: 'Probe edit' })),
  'PUT /messages/:id': deny((f) => call(`/messages/${f.messageId}`, { body: 'Probe edit' })),
  'POST /messages/:messageId/reactions': deny((f) => call(`/messages/${f.messageId}/reactions`, { type: '👍' })),
  'POST /message/forward': deny((f) => call('/message/forward', { messageId: f.messageId, contactId: f.contactId })),
  'GET /messages-allMe': open(() => '/messages-allMe?fromMe=true&dateStart=2024-05-01&dateEnd=2999-12-31'),
  'GET /api-keys': open(() => '/api-keys'),
  'POST /api-keys': open(() => call('/api-keys', { name: 'Probe key', scopes: ['tickets:read'] })),
  'DELETE /api-keys/:id': deny((f) => `/api-keys/${f.apiKeyId}`),
  // An admin's companyId is ignored (the session decides); only a super user reads another company's log.
  'GET /audit-logs': open((f) => `/audit-logs?companyId=${f.ownCompanyId}&entity=user`),
  // Web Push (issue 35): the caller's own browsers; another company's endpoint is refused (409), never taken over
  'GET /push/vapid-public-key': open(() => '/push/vapid-public-key'),
  'GET /push/settings': open(() => '/push/settings'),
  'PUT /push/settings': open(() => call('/push/settings', { chatMessages: true })),
  'POST /push/subscriptions': open((f) => call('/push/subscriptions', { endpoint: f.pushEndpoint, keys: PROBE_PUSH_KEYS })),
  'DELETE /push/subscriptions': deny((f) => call('/push/subscriptions', { endpoint: f.pushEndpoint })),
  'GET /webhooks': open(() => '/webhooks'),
  // A public name: the outbound policy's check at save time needs no answer from it.
  'POST /webhooks': open(() => call('/webhooks', { url: 'https://hooks.example.com/probe', events: ['ticket.created'], description: 'Probe webhook' })),
  'PUT /webhooks/:id': deny((f) => call(`/webhooks/${f.webhookId}`, { description: 'Changed by a probe', enabled: false })),
  'DELETE /webhooks/:id': deny((f) => `/webhooks/${f.webhookId}`),
  'GET /webhooks/:id/deliveries': deny((f) => `/webhooks/${f.webhookId}/deliveries`),
  'POST /webhooks/:id/deliveries/:deliveryId/retry': deny((f) => call(`/webhooks/${f.webhookId}/deliveries/${f.webhookDeliveryId}/retry`, {})),
  'GET /sla/breaches': open(() => '/sla/breaches'),
  'GET /dashboard/sla': open((f) => `/dashboard/sla?days=30&queueIds=${f.queueId}`),
  'GET /stickers': open(() => '/stickers'),
  'POST /stickers': open(() => upload('/stickers')),
  'DELETE /stickers/:stickerId': deny((f) => `/stickers/${f.stickerId}`),
  // v6's sticker image address carries a signed media link: another company's file without a valid signature.
  'GET /public/:companyDir/stickers/salvos/*': deny((f) => ({
    url: `/public/company${f.ownCompanyId}/stickers/salvos/${Buffer.from(`/media/${f.ownCompanyId}/2026-01/probe.webp?expires=9999999999&signature=${'0'.repeat(43)}`).toString('base64url')}`,
    anonymous: true,
  })),
  'POST /messages/:ticketId/template': deny((f) => call(`/messages/${f.ticketId}/template`, { name: 'probe', language: 'en' })),
  // contacts, notes, tags, quick messages
  'GET /contacts': open((f) => `/contacts?searchParam=${q(f)}`),
  'GET /contacts/list': open((f) => `/contacts/list?companyId=${f.ownCompanyId}`),
  'GET /contacts/export': open(() => '/contacts/export'),
  'GET /contacts/:id': deny((f) => `/contacts/${f.contactId}`),
  'POST /contacts': open(() => call('/contacts', { name: 'Probe contact', number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` })),
  'PUT /contacts/:id': deny((f) => call(`/contacts/${f.contactId}`, { name: 'Probe renamed' })),
  'DELETE /contacts/:id': deny((f) => `/contacts/${f.contactId}`),
  'POST /contacts/upload': open(() => call('/contacts/upload', [{ name: 'Probe upload', number: `55119${String(Math.floor(Math.random() * 1e8)).padStart(8, '0')}` }])),
  'POST /contacts/import': open(() => '/contacts/import'),
  'GET /ticket-notes/list': deny((f) => `/ticket-notes/list?ticketId=${f.ticketId}&contactId=${f.contactId}`),
  'POST /ticket-notes': deny((f) => call('/ticket-notes', { note: 'Probe note', ticketId: f.ticketId, contactId: f.contactId })),
  'DELETE /ticket-notes/:id': deny((f) => `/ticket-notes/${f.noteId}`),
  'GET /tags': open((f) => `/tags?searchParam=${q(f)}`),
  // The company is the session's: another company's id, queues and connections count for nothing.
  'GET /dashboard': open((f) => `/dashboard?days=90&companyId=${f.ownCompanyId}&queueIds=${f.queueId}&whatsappIds=${f.connectionId}`),
  'GET /dashboard/ticketsUsers': open((f) => `/dashboard/ticketsUsers?initialDate=2026-01-01&finalDate=2026-12-31&companyId=${f.ownCompanyId}&queueIds=${f.queueId}`),
  'GET /dashboard/ticketsDay': open((f) => `/dashboard/ticketsDay?initialDate=2026-01-01&finalDate=2026-12-31&companyId=${f.ownCompanyId}&whatsappIds=${f.connectionId}`),
  'GET /dashboard/agentLoad': open(() => '/dashboard/agentLoad'),
  'GET /reports/appointmentsAtendent': open((f) => `/reports/appointmentsAtendent?initialDate=2026-01-01&finalDate=2026-12-31&companyId=${f.ownCompanyId}`),
  'GET /reports/departamentRatings': open((f) => `/reports/departamentRatings?initialDate=2026-01-01&finalDate=2026-12-31&companyId=${f.ownCompanyId}`),
  'GET /reports/rushHour': open((f) => `/reports/rushHour?initialDate=2026-01-01&finalDate=2026-12-31&companyId=${f.ownCompanyId}`),
  'GET /ticket/reports': open((f) => `/ticket/reports?searchParam=${q(f)}&queueIds=${encodeURIComponent(`[${f.queueId}]`)}&status=${encodeURIComponent('["open","closed"]')}&page=1&pageSize=10`),
  'GET /messages/transcribeAudio/:fileName': open(() => '/messages/transcribeAudio/audio.ogg'),
  'GET /tags/list': open((f) => `/tags/list?companyId=${f.ownCompanyId}`),
  'GET /tags/kanban': open(() => '/tags/kanban'),
  'GET /tags/:id': deny((f) => `/tags/${f.tagId}`),
  'POST /tags': open((f) => call('/tags', { name: `Probe tag ${Math.random().toString(36).slice(2, 8)}`, userId: f.userId })),
  'PUT /tags/:id': deny((f) => call(`/tags/${f.tagId}`, { name: 'Probe renamed' })),
  'DELETE /tags/:id': deny((f) => `/tags/${f.tagId}`),
  'POST /tags/sync': deny((f) => call('/tags/sync', { ticketId: f.ticketId, tags: [{ id: f.tagId }] })),
  'GET /quick-messages': open((f) => `/quick-messages?searchParam=${q(f)}`),
  'GET /quick-messages/list': open((f) => `/quick-messages/list?companyId=${f.ownCompanyId}&userId=${f.userId}`),
  'GET /quick-messages/:id': deny((f) => `/quick-messages/${f.quickMessageId}`),
  'POST /quick-messages': open((f) => call('/quick-messages', { shortcode: `probe-${Math.random().toString(36).slice(2, 8)}`, companyId: f.ownCompanyId, userId: f.userId })),
  'PUT /quick-messages/:id': deny((f) => call(`/quick-messages/${f.quickMessageId}`, { message: 'Probe' })),
  'DELETE /quick-messages/:id': deny((f) => `/quick-messages/${f.quickMessageId}`),
  'POST /quick-messages/:id/media-upload': deny((f) => upload(`/quick-messages/${f.quickMessageId}/media-upload`)),
  'DELETE /quick-messages/:id/media-upload': deny((f) => `/quick-messages/${f.quickMessageId}/media-upload`),
  // outbound (issue 20, engine helper): schedules and campaign settings
  'GET /schedules': open((f) => `/schedules?searchParam=${q(f)}`),
  'GET /schedules/:id': deny((f) => `/schedules/${f.scheduleId}`),
  'POST /schedules': deny((f) => call('/schedules', { body: 'Probe schedule body', contactId: f.contactId, sendAt: '2999-01-01T10:00:00Z' })),
  'PUT /schedules/:id': deny((f) => call(`/schedules/${f.scheduleId}`, { body: 'Probe schedule edit' })),
  'DELETE /schedules/:id': deny((f) => `/schedules/${f.scheduleId}`),
  'POST /schedules/:id/media-upload': deny((f) => upload(`/schedules/${f.scheduleId}/media-upload`)),
  'DELETE /schedules/:id/media-upload': deny((f) => `/schedules/${f.scheduleId}/media-upload`),
  'GET /campaign-settings': open(() => '/campaign-settings'),
  'POST /campaign-settings': open(() => call('/campaign-settings', { settings: { messageInterval: 5 } })),
  // contact lists (issue 20)
  'GET /contact-lists': open((f) => `/contact-lists?searchParam=${q(f)}`),
  'GET /contact-lists/list': open(() => '/contact-lists/list'),
  'GET /contact-lists/:id': deny((f) => `/contact-lists/${f.contactListId}`),
  'POST /contact-lists': open(() => call('/contact-lists', { name: 'Probe list' })),
  'PUT /contact-lists/:id': deny((f) => call(`/contact-lists/${f.contactListId}`, { name: 'Probe list renamed' })),
  'DELETE /contact-lists/:id': deny((f) => `/contact-lists/${f.contactListId}`),
  'POST /contact-lists/:id/upload': deny((f) => upload(`/contact-lists/${f.contactListId}/upload`)),
  'GET /contact-list-items': deny((f) => `/contact-list-items?contactListId=${f.contactListId}&searchParam=${q(f)}`),
  'GET /contact-list-items/:id': deny((f) => `/contact-list-items/${f.contactListItemId}`),
  'GET /contact-list-items/list': deny((f) => `/contact-list-items/list?contactListId=${f.contactListId}`),
  'POST /contact-list-items': deny((f) => call('/contact-list-items', { contactListId: f.contactListId, name: 'Probe person', number: '5511987650000' })),
  'PUT /contact-list-items/:id': deny((f) => call(`/contact-list-items/${f.contactListItemId}`, { name: 'Probe person renamed' })),
  'DELETE /contact-list-items/:id': deny((f) => `/contact-list-items/${f.contactListItemId}`),
  // campaigns (issue 20)
  'GET /campaigns': open((f) => `/campaigns?searchParam=${q(f)}`),
  'GET /campaigns/:id': deny((f) => `/campaigns/${f.campaignId}`),
  'POST /campaigns': open(() => call('/campaigns', { name: 'Probe campaign', message1: 'Olá {nome}' })),
  'PUT /campaigns/:id': deny((f) => call(`/campaigns/${f.campaignId}`, { name: 'Probe campaign renamed' })),
  'DELETE /campaigns/:id': deny((f) => `/campaigns/${f.campaignId}`),
  'POST /campaigns/:id/cancel': deny((f) => call(`/campaigns/${f.campaignId}/cancel`)),
  'POST /campaigns/:id/restart': deny((f) => call(`/campaigns/${f.campaignId}/restart`)),
  'POST /campaigns/:id/media-upload': deny((f) => upload(`/campaigns/${f.campaignId}/media-upload`)),
  'DELETE /campaigns/:id/media-upload': deny((f) => `/campaigns/${f.campaignId}/media-upload`),
  // file lists (issue 20)
  'GET /files': open((f) => `/files?searchParam=${q(f)}`),
  'GET /files/:id': deny((f) => `/files/${f.fileListId}`),
  'POST /files': open(() => call('/files', { name: 'Probe files', message: 'Probe message', options: [{ name: 'Catalog' }] })),
  'PUT /files/:id': deny((f) => call(`/files/${f.fileListId}`, { name: 'Probe files renamed' })),
  'DELETE /files/:id': deny((f) => `/files/${f.fileListId}`),
  'POST /files/uploadList/:id': deny((f) => upload(`/files/uploadList/${f.fileListId}`)),
  // announcements (issue 22): platform data every user reads; only super users write
  'GET /announcements': open((f) => `/announcements?searchParam=${q(f)}`),
  'GET /announcements/unread': open(() => '/announcements/unread'),
  'POST /announcements/read': open(() => '/announcements/read'),
  'GET /announcements/:id': open((f) => `/announcements/${f.announcementId}`),
  'POST /announcements': open(() => call('/announcements', { title: 'Probe announcement', text: 'Probe text', priority: 3 })),
  'PUT /announcements/:id': deny((f) => call(`/announcements/${f.announcementId}`, { title: 'Probe edit' })),
  'DELETE /announcements/:id': deny((f) => `/announcements/${f.announcementId}`),
  'POST /announcements/:id/media-upload': deny((f) => upload(`/announcements/${f.announcementId}/media-upload`)),
  'DELETE /announcements/:id/media-upload': deny((f) => `/announcements/${f.announcementId}/media-upload`),
  // internal chat (issue 22): members only
  'GET /invoices/all': open((f) => `/invoices/all?searchParam=${q(f)}`),
  'GET /invoices/list': open(() => '/invoices/list'),
  'GET /invoices/:id': deny((f) => `/invoices/${f.invoiceId}`),
  'GET /subscription': open(() => '/subscription'),
  'POST /subscription': deny((f) => call('/subscription', { invoiceId: f.invoiceId, firstName: 'Probe', address2: 'Rua 1', city: 'SP', zipcode: '01000-000', country: 'BR' })),
  'POST /subscription/validate/webhook': open(() => call('/subscription/validate/webhook', { url: 'https://psp.example.com/webhook' })),
  'GET /chats': open((f) => `/chats?searchParam=${q(f)}`),
  'GET /chats/unread': open(() => '/chats/unread'),
  'GET /chats/:id': deny((f) => `/chats/${f.chatUuid}`),
  'POST /chats': deny((f) => call('/chats', { title: 'Probe chat', users: [{ id: f.userId }] })),
  'PUT /chats/:id': deny((f) => call(`/chats/${f.chatId}`, { title: 'Probe chat renamed' })),
  'DELETE /chats/:id': deny((f) => `/chats/${f.chatId}`),
  'POST /chats/:id/leave': deny((f) => `/chats/${f.chatId}/leave`),
  'POST /chats/:id/read': deny((f) => call(`/chats/${f.chatId}/read`, { userId: f.userId })),
  'GET /chats/:id/messages': deny((f) => `/chats/${f.chatId}/messages?pageNumber=1`),
  'POST /chats/:id/messages': deny((f) => call(`/chats/${f.chatId}/messages`, { message: 'Probe message' })),
};

/** The case of a registered route, or undefined when the table has none. */
export function routeCase(key: string): RouteCase | undefined {
  return (ROUTE_CASES as Record<string, RouteCase>)[key];
}
