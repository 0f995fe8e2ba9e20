import { CheckoutBody, IdParams, PageQuery, type AsaasWebhookAnswer, type PixWebhookAnswer } from '@atende/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { parsePixAmount } from '../../platform/payments/brcode.js';
import type { Platform } from '../../platform/platform.js';
import { presentCheckout, presentInvoice, presentSubscription } from './invoices.presenter.js';
import {
  allInvoices,
  asaasWebhookAuthentic,
  checkout,
  checkWebhookAddress,
  invoicePage,
  issueInvoiceNow,
  receiveAsaasEvent,
  receivePixNotifications,
  showInvoice,
  showSubscription,
  type InvoicesDeps,
} from './invoices.service.js';
import { ASAAS_WEBHOOK_PATH, PIX_WEBHOOK_PATH, registerPaymentRoutes } from './payments.js';
import { AppError } from '../../platform/http/app-error.js';

/**
 * Billing pages work for an admin of a company past its due date (that is how it
 * pays its way back): `allowExpiredCompany`, admins only.
 */
const BILLING = { allowExpiredCompany: true } as const;

export function registerInvoiceRoutes(scope: FastifyInstance, deps: InvoicesDeps & Pick<Platform, 'mailer'>): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  // The spec's client loads the answer as the list itself, so the page is an array;
  // whether more pages exist is in the X-Has-More header (docs/architecture.md).
  app.get('/invoices/all', { schema: { querystring: PageQuery }, config: BILLING }, async (request, reply) => {
    const page = await invoicePage(deps, request.ctx, request.query);
    reply.header('x-has-more', String(page.hasMore));
    return page.invoices.map((row) => presentInvoice(row, request.ctx.company.timezone));
  });

  // whaticket v6's invoice hook (from a file its entry never loads): the whole list, and one invoice.
  app.get('/invoices/list', { config: BILLING }, async (request) =>
    (await allInvoices(deps, request.ctx)).map((row) => presentInvoice(row, request.ctx.company.timezone)),
  );
  app.get('/invoices/:id', { schema: { params: IdParams }, config: BILLING }, async (request) => presentInvoice(await showInvoice(deps, request.ctx, request.params.id), request.ctx.company.timezone));

  app.get('/subscription', { config: BILLING }, async (request) => {
    const { detail, ...options } = await showSubscription(deps, request.ctx, deps.payments);
    return presentSubscription(detail, options);
  });

  app.post('/subscription', { schema: { body: CheckoutBody }, config: BILLING }, async (request) => {
    const { charge, ...options } = await checkout(deps, request.ctx, request.body, request.ip);
    return presentCheckout(charge, options);
  });

  // whaticket v6's "validate webhook" of its payment settings (super users): checked for form, not called.
  const WebhookAddress = z.object({ url: z.url({ protocol: /^https?$/, error: 'validation.invalidValue' }).max(2000, 'validation.tooLong') });
  app.post('/subscription/validate/webhook', { schema: { body: WebhookAddress } }, async (request) => checkWebhookAddress(request.body.url));

  // A super user issues a company's invoice now (the settings' companies tab): 201 made, 200 it had one.
  app.post('/companies/:id/invoices', { schema: { params: IdParams }, preValidation: superOnly }, async (request, reply) => {
    const { invoice, created, timeZone } = await issueInvoiceNow(deps, request.ctx, request.params.id);
    return reply.status(created ? 201 : 200).send(presentInvoice(invoice, timeZone));
  });
}

const PixWebhookBody = z.object({
  pix: z
    .array(
      z.object({
        txid: z.string().max(64).optional(),
        endToEndId: z.string().max(64),
        valor: z.string().refine((value) => parsePixAmount(value) !== null, 'validation.invalidValue'),
      }),
    )
    .max(100)
    .optional(),
});

/**
 * The PSP's payment notifications (Efí posts to the registered URL + `/pix`). The
 * secret in the path must match; each notified Pix is then confirmed by fetching
 * its charge from the PSP (`applyPixNotification`). A wrong secret is "not found".
 * Valid calls answer 200 even when a Pix is ignored, so the PSP does not retry them.
 */
export async function registerPaymentWebhookRoutes(scope: FastifyInstance, deps: InvoicesDeps): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  await registerPaymentRoutes(scope, deps);

  async function receive(request: { params: { secret: string }; body: z.infer<typeof PixWebhookBody>; log: FastifyBaseLogger }) {
    // The schema checked the amounts' shape, so they parse.
    const pixes = (request.body.pix ?? []).map((pix) => ({ txid: pix.txid, endToEndId: pix.endToEndId, amountCents: parsePixAmount(pix.valor) ?? 0 }));
    const outcomes = await receivePixNotifications(deps, request.params.secret, pixes, (txid, outcome) => request.log.info({ txid, outcome }, 'pix notification'));
    return { received: outcomes.length, outcomes } satisfies PixWebhookAnswer;
  }

  const params = z.object({ secret: z.string().max(200) });
  app.post(`${PIX_WEBHOOK_PATH}/:secret`, { schema: { params, body: PixWebhookBody } }, receive);
  app.post(`${PIX_WEBHOOK_PATH}/:secret/pix`, { schema: { params, body: PixWebhookBody } }, receive);
  registerAsaasWebhookRoutes(scope, deps);
}

/** Asaas's event (docs.asaas.com, "Webhook events"): what is read of it; the rest is fetched back from Asaas. */
const AsaasEventBody = z
  .object({
    id: z.string().max(200).optional(),
    event: z.string().max(100),
    payment: z.object({ id: z.string().max(100) }).loose().optional(),
  })
  .loose();

/**
 * Asaas's payment events (`POST /payments/asaas/webhook`, registered with Asaas when the
 * provider is built). Authenticated by the `asaas-access-token` header, the token Asaas
 * was given (wrong or missing: 401 before the body is read); each paid event is then
 * confirmed by fetching the payment back (`receiveAsaasEvent`). Valid calls answer 200
 * even for an event that changes nothing, so Asaas does not pause its queue.
 */
function registerAsaasWebhookRoutes(scope: FastifyInstance, deps: InvoicesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  app.post(
    ASAAS_WEBHOOK_PATH,
    {
      schema: { body: AsaasEventBody },
      onRequest: async (request) => {
        const token = request.headers['asaas-access-token'];
        if (!asaasWebhookAuthentic(deps, typeof token === 'string' ? token : undefined)) throw new AppError('ERR_INVALID_API_TOKEN');
      },
    },
    async (request) => {
      const outcome = await receiveAsaasEvent(deps, { event: request.body.event, paymentId: request.body.payment?.id });
      request.log.info({ event: request.body.event, payment: request.body.payment?.id, outcome }, 'asaas event');
      return { received: true, outcome } satisfies AsaasWebhookAnswer;
    },
  );
}
