import { randomBytes } from 'node:crypto';
import { RECURRENCE_MONTHS, type CheckoutBody, type PaymentEventPayload, type PixCheckoutView, type Recurrence } from '@atende/shared';
import { and, eq, ne, sql } from 'drizzle-orm';
import type { AppServices } from '../../app.js';
import { companies, invoices, pixCharges, type PixChargeRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin } from '../../platform/http/guards.js';
import type { PixNotification } from '../../platform/payments/payment-provider.js';
import { formatPixAmount } from '../../platform/payments/brcode.js';
import { PaymentProviderError } from '../../platform/payments/efi-pix.provider.js';
import { createDueInvoices, findChargeByTxid, findInvoice, findOpenCharge } from './invoices.repo.js';
import { paymentProvider } from './payments.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'payment.concluded': { companyId: number; payload: PaymentEventPayload };
  }
}

/** A charge shown again instead of a new one while it has at least this long left. */
const REUSE_CHARGE_MS = 5 * 60_000;

/** The company's open invoices up to its due date + the configured lead (sign-up, the daily job). */
export function makeDueInvoices(services: AppServices, companyId?: number) {
  return createDueInvoices(services.db, { now: new Date(), daysBefore: services.config.INVOICE_DAYS_BEFORE_DUE, companyId });
}

function presentCheckout(charge: PixChargeRow, sandbox: boolean): PixCheckoutView {
  return {
    txid: charge.txid,
    invoiceId: charge.invoiceId,
    qrcode: { qrcode: charge.copyPaste },
    valor: { original: formatPixAmount(charge.amountCents) },
    expiresAt: charge.expiresAt.toISOString(),
    sandbox,
  };
}

/**
 * `POST /subscription`: a Pix charge for one of the company's open invoices. The
 * amount is the invoice's, read here; nothing the form sends changes it. A charge
 * made earlier that can still be paid is shown again.
 */
export async function checkout(services: AppServices, ctx: RequestContext, body: CheckoutBody): Promise<PixCheckoutView> {
  requireAdmin(ctx);
  const invoice = await findInvoice(services.db, ctx, body.invoiceId);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
  const provider = await paymentProvider(services);
  if (!provider) throw new AppError('ERR_PAYMENTS_UNAVAILABLE');
  const sandbox = provider.kind === 'fake';

  const reusable = await findOpenCharge(services.db, ctx, invoice.id, new Date(Date.now() + REUSE_CHARGE_MS));
  if (reusable) {
    const remote = await provider.getPixCharge(reusable.txid).catch(() => undefined);
    // The PSP could not be asked now: the stored charge is still the best answer.
    if (remote === undefined || remote?.status === 'ATIVA') return presentCheckout(reusable, sandbox);
    if (remote?.status === 'CONCLUIDA') {
      // Paid, but its notification never arrived: settled now, as the webhook would have.
      const outcome = await applyPixNotification(services, { txid: reusable.txid, endToEndId: '', amountCents: remote.paidCents });
      if (outcome === 'paid' || outcome === 'replay') throw new AppError('ERR_INVOICE_ALREADY_PAID');
    }
    // The PSP no longer has it (removed, or a fake PSP that restarted): a new charge below.
    await services.db.update(pixCharges).set({ status: remote?.status ?? 'REMOVIDA_PELO_PSP' }).where(eq(pixCharges.id, reusable.id));
  }

  // The Pix API's txid: 26 to 35 letters and digits.
  const txid = randomBytes(24).toString('base64url').replace(/[^a-zA-Z0-9]/g, '').padEnd(26, '0').slice(0, 32);
  const expiresInSeconds = services.config.PIX_CHARGE_EXPIRES_SECONDS;
  try {
    const charge = await provider.createPixCharge({
      txid,
      amountCents: invoice.valueCents,
      expiresInSeconds,
      description: `Atende: ${invoice.detail}`.slice(0, 140),
    });
    if (charge.amountCents !== invoice.valueCents) throw new PaymentProviderError(`charge amount ${charge.amountCents} differs from the invoice`, 0);
    const [row] = await services.db
      .insert(pixCharges)
      .values({
        companyId: ctx.companyId,
        invoiceId: invoice.id,
        txid: charge.txid,
        amountCents: invoice.valueCents,
        status: charge.status,
        copyPaste: charge.copyPaste,
        expiresAt: new Date(charge.createdAt.getTime() + charge.expiresInSeconds * 1000),
      })
      .returning();
    if (!row) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
    return presentCheckout(row, sandbox);
  } catch (error) {
    if (error instanceof PaymentProviderError) throw new AppError('ERR_PAYMENTS_UNAVAILABLE', undefined, { reason: error.message.slice(0, 200) });
    throw error;
  }
}

/** What a notification led to, for logs and tests. */
export type NotificationOutcome = 'paid' | 'replay' | 'unknown-charge' | 'not-paid' | 'wrong-amount';

/**
 * A PSP says a Pix arrived. It is trusted only after the charge is fetched back from
 * the PSP: paid, and for exactly the invoice's amount. Then, once (the charge and the
 * invoice change state with conditional updates in one transaction, so a replay or
 * a second node finds nothing to do), the invoice is paid and the company's due date
 * moves by its recurrence: from the invoice's due date, or from now when it was paid
 * after it (an overdue company does not pay for the days it could not work).
 */
export async function applyPixNotification(services: AppServices, notification: PixNotification): Promise<NotificationOutcome> {
  const charge = await findChargeByTxid(services.db, notification.txid);
  if (!charge) return 'unknown-charge';
  if (charge.status === 'CONCLUIDA') return 'replay';
  const provider = await paymentProvider(services);
  if (!provider) return 'not-paid';
  const remote = await provider.getPixCharge(charge.txid);
  if (!remote || remote.status !== 'CONCLUIDA') return 'not-paid';
  if (remote.amountCents !== charge.amountCents || remote.paidCents !== charge.amountCents) return 'wrong-amount';

  const now = new Date();
  const result = await services.db.transaction(async (tx) => {
    const [settled] = await tx
      .update(pixCharges)
      .set({ status: 'CONCLUIDA', paidAt: now, endToEndId: notification.endToEndId.slice(0, 64) })
      .where(and(eq(pixCharges.id, charge.id), ne(pixCharges.status, 'CONCLUIDA')))
      .returning({ id: pixCharges.id });
    if (!settled) return null;
    const [invoice] = await tx
      .update(invoices)
      .set({ status: 'paid', paidAt: now, updatedAt: now })
      .where(and(eq(invoices.id, charge.invoiceId), eq(invoices.status, 'open')))
      .returning();
    // A second charge of an invoice already paid: kept as paid, the due date does not move twice.
    if (!invoice) return null;
    const [company] = await tx.select({ recurrence: companies.recurrence }).from(companies).where(eq(companies.id, invoice.companyId));
    const months = RECURRENCE_MONTHS[(company?.recurrence ?? 'MENSAL') as Recurrence] ?? 1;
    const base = invoice.dueDate.getTime() > now.getTime() ? invoice.dueDate : now;
    const [moved] = await tx
      .update(companies)
      .set({
        dueDate: sql`greatest(coalesce(${companies.dueDate}, ${base.toISOString()}::timestamptz), ${base.toISOString()}::timestamptz + make_interval(months => ${months}))`,
        updatedAt: now,
      })
      .where(eq(companies.id, invoice.companyId))
      .returning({ id: companies.id, dueDate: companies.dueDate });
    return moved ? { invoiceId: invoice.id, companyId: moved.id, dueDate: moved.dueDate } : null;
  });
  if (!result) return 'replay';
  // Sessions carry the due date: every node forgets them, so the company works again at once.
  await services.access.changed({ companyId: result.companyId });
  services.events.emit('payment.concluded', {
    companyId: result.companyId,
    payload: { action: 'CONCLUIDA', invoiceId: result.invoiceId, company: { id: result.companyId, dueDate: (result.dueDate ?? now).toISOString() } },
  });
  return 'paid';
}
