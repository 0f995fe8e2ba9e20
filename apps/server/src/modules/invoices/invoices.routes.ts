import { CheckoutBody, IdParams, PageQuery } from '@atende/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { parsePixAmount } from '../../platform/payments/brcode.js';
import type { Platform } from '../../platform/platform.js';
import { presentCheckout, presentInvoice, presentSubscription } from './invoices.presenter.js';
import { checkout, invoicePage, issueInvoiceNow, receivePixNotifications, showSubscription, type InvoicesDeps } from './invoices.service.js';
import { PIX_WEBHOOK_PATH, registerPaymentRoutes } from './payments.js';

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

  app.get('/subscription', { config: BILLING }, async (request) => {
    const { detail, ...options } = await showSubscription(deps, request.ctx);
    return presentSubscription(detail, options);
  });

  app.post('/subscription', { schema: { body: CheckoutBody }, config: BILLING }, async (request) => {
    const { charge, sandbox } = await checkout(deps, request.ctx, request.body);
    return presentCheckout(charge, sandbox);
  });

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
    return { received: outcomes.length, outcomes };
  }

  const params = z.object({ secret: z.string().max(200) });
  app.post(`${PIX_WEBHOOK_PATH}/:secret`, { schema: { params, body: PixWebhookBody } }, receive);
  app.post(`${PIX_WEBHOOK_PATH}/:secret/pix`, { schema: { params, body: PixWebhookBody } }, receive);
}
