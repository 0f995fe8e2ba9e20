import { timingSafeEqual } from 'node:crypto';
import { CheckoutBody, PageQuery, type InvoiceView, type SubscriptionView } from '@atende/shared';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppServices } from '../../app.js';
import type { InvoiceRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { parsePixAmount } from '../../platform/payments/brcode.js';
import { findCompany } from '../companies/companies.repo.js';
import { applyPixNotification, checkout } from './invoices.service.js';
import { pageInvoices } from './invoices.repo.js';
import { PIX_WEBHOOK_PATH, registerPaymentRoutes } from './payments.js';

const DAY_MS = 86_400_000;

/** Display status (spec part 2 §4): paid; expired when its due date is before today and unpaid; else open. */
export function presentInvoice(row: InvoiceRow, now = new Date()): InvoiceView {
  const status = row.status === 'paid' ? 'paid' : row.dueDate.getTime() < now.getTime() ? 'expired' : 'open';
  return {
    id: row.id,
    detail: row.detail,
    value: row.valueCents / 100,
    dueDate: row.dueDate.toISOString(),
    status,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

/**
 * Billing pages work for an admin of a company past its due date (that is how it
 * pays its way back): `allowExpiredCompany`, admins only.
 */
const BILLING = { allowExpiredCompany: true } as const;

export function registerInvoiceRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  // The spec's client loads the answer as the list itself, so the page is an array;
  // whether more pages exist is in the X-Has-More header (docs/architecture.md).
  app.get('/invoices/all', { schema: { querystring: PageQuery }, config: BILLING }, async (request, reply) => {
    requireAdmin(request.ctx);
    const page = await pageInvoices(services.db, request.ctx, request.query);
    reply.header('x-has-more', String(page.hasMore));
    return page.invoices.map((row) => presentInvoice(row));
  });

  app.get('/subscription', { config: BILLING }, async (request): Promise<SubscriptionView> => {
    requireAdmin(request.ctx);
    const detail = await findCompany(services.db, request.ctx.companyId);
    if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
    const { company, plan } = detail;
    const trial = company.trialExpiration;
    return {
      companyId: company.id,
      name: company.name,
      email: company.email,
      plan: { id: plan.id, name: plan.name, value: plan.valueCents / 100 },
      recurrence: company.recurrence,
      dueDate: company.dueDate?.toISOString() ?? null,
      trialExpiration: trial?.toISOString() ?? null,
      trialDaysLeft: trial ? Math.max(0, Math.ceil((trial.getTime() - Date.now()) / DAY_MS)) : null,
      paymentsEnabled: services.config.PIX_PROVIDER !== 'none',
      mailEnabled: services.mailer.configured,
    };
  });

  app.post('/subscription', { schema: { body: CheckoutBody }, config: BILLING }, async (request) => {
    return checkout(services, request.ctx, request.body);
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

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The PSP's payment notifications (Efí posts to the registered URL + `/pix`). The
 * secret in the path must match; each notified Pix is then confirmed by fetching
 * its charge from the PSP (`applyPixNotification`). A wrong secret is "not found".
 * Valid calls answer 200 even when a Pix is ignored, so the PSP does not retry them.
 */
export async function registerPaymentWebhookRoutes(scope: FastifyInstance, services: AppServices): Promise<void> {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  await registerPaymentRoutes(scope, services);

  async function receive(request: { params: { secret: string }; body: z.infer<typeof PixWebhookBody>; log: FastifyBaseLogger }) {
    const { body } = request;
    if (!sameSecret(request.params.secret, services.config.PAYMENT_WEBHOOK_SECRET)) throw new AppError('ERR_NOT_FOUND');
    const outcomes: string[] = [];
    for (const pix of body.pix ?? []) {
      if (!pix.txid) {
        outcomes.push('no-txid');
        continue;
      }
      // The schema checked the amount's shape, so it parses.
      const outcome = await applyPixNotification(services, { txid: pix.txid, endToEndId: pix.endToEndId, amountCents: parsePixAmount(pix.valor) ?? 0 });
      request.log.info({ txid: pix.txid, outcome }, 'pix notification');
      outcomes.push(outcome);
    }
    return { received: outcomes.length, outcomes };
  }

  const params = z.object({ secret: z.string().max(200) });
  app.post(`${PIX_WEBHOOK_PATH}/:secret`, { schema: { params, body: PixWebhookBody } }, receive);
  app.post(`${PIX_WEBHOOK_PATH}/:secret/pix`, { schema: { params, body: PixWebhookBody } }, receive);
}
