import { randomBytes, timingSafeEqual } from 'node:crypto';
import { dayIn, DEFAULT_TIMEZONE, presentDueDate, RECURRENCE_MONTHS, type CheckoutBody, type PaymentEventPayload, type Recurrence } from '@atende/shared';
import type { InvoiceRow, PixChargeRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import type { PixNotification } from '../../platform/payments/payment-provider.js';
import { PaymentProviderError } from '../../platform/payments/efi-pix.provider.js';
import type { Platform } from '../../platform/platform.js';
import { findCompany, type CompanyDetail } from '../companies/companies.repo.js';
import {
  companyBilling,
  createDueInvoices,
  extendDueDate,
  findChargeByTxid,
  findInvoice,
  findOpenCharge,
  insertCharge,
  issueCurrentInvoice,
  pageInvoices,
  payInvoice,
  setChargeStatus,
  settleCharge,
} from './invoices.repo.js';
import type { Payments } from './payments.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'payment.concluded': { companyId: number; payload: PaymentEventPayload };
  }
}

/** Billing: invoices, Pix charges through the app's payments, and the company's due date they move. */
export type InvoicesDeps = Pick<Platform, 'db' | 'config' | 'access' | 'events'> & { payments: Payments };

/** A charge shown again instead of a new one while it has at least this long left. */
const REUSE_CHARGE_MS = 5 * 60_000;

/** The company's open invoices up to its due date + the configured lead (sign-up, the daily job). */
export function makeDueInvoices(deps: Pick<Platform, 'db' | 'config'>, companyId?: number) {
  return createDueInvoices(deps.db, { now: new Date(), daysBefore: deps.config.INVOICE_DAYS_BEFORE_DUE, companyId });
}

/**
 * `POST /companies/:id/invoices` (super users): the invoice of the company's current due
 * date at once, instead of when the hourly job reaches it; the one it has if it has one.
 */
export async function issueInvoiceNow(
  deps: Pick<Platform, 'db'>,
  ctx: RequestContext,
  companyId: number,
): Promise<{ invoice: InvoiceRow; created: boolean; timeZone: string }> {
  requireSuper(ctx);
  const company = await findCompany(deps.db, companyId);
  if (!company) throw new AppError('ERR_NO_COMPANY_FOUND');
  const issued = await issueCurrentInvoice(deps.db, companyId);
  if (!issued) throw new AppError('ERR_NOTHING_TO_INVOICE');
  return { ...issued, timeZone: company.company.timezone };
}

/** `GET /invoices/all`: the company's invoices, for its admins (also while it is overdue). */
export function invoicePage(deps: Pick<Platform, 'db'>, ctx: RequestContext, query: { searchParam: string; pageNumber: number }) {
  requireAdmin(ctx);
  return pageInvoices(deps.db, ctx, query);
}

/** `GET /subscription`: the admin's company with its plan, and whether it can pay and be mailed here. */
export async function showSubscription(
  deps: Pick<Platform, 'db' | 'config' | 'mailer'>,
  ctx: RequestContext,
): Promise<{ detail: CompanyDetail; paymentsEnabled: boolean; mailEnabled: boolean }> {
  requireAdmin(ctx);
  const detail = await findCompany(deps.db, ctx.companyId);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  return { detail, paymentsEnabled: deps.config.PIX_PROVIDER !== 'none', mailEnabled: deps.mailer.configured };
}

/**
 * `POST /subscription`: a Pix charge for one of the company's open invoices. The
 * amount is the invoice's, read here; nothing the form sends changes it. A charge
 * made earlier that can still be paid is shown again.
 */
export async function checkout(deps: InvoicesDeps, ctx: RequestContext, body: CheckoutBody): Promise<{ charge: PixChargeRow; sandbox: boolean }> {
  requireAdmin(ctx);
  const invoice = await findInvoice(deps.db, ctx, body.invoiceId);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
  const provider = await deps.payments.provider();
  if (!provider) throw new AppError('ERR_PAYMENTS_UNAVAILABLE');
  const sandbox = provider.kind === 'fake';

  const reusable = await findOpenCharge(deps.db, ctx, invoice.id, new Date(Date.now() + REUSE_CHARGE_MS));
  if (reusable) {
    const remote = await provider.getPixCharge(reusable.txid).catch(() => undefined);
    // The PSP could not be asked now: the stored charge is still the best answer.
    if (remote === undefined || remote?.status === 'ATIVA') return { charge: reusable, sandbox };
    if (remote?.status === 'CONCLUIDA') {
      // Paid, but its notification never arrived: settled now, as the webhook would have.
      const outcome = await applyPixNotification(deps, { txid: reusable.txid, endToEndId: '', amountCents: remote.paidCents });
      if (outcome === 'paid' || outcome === 'replay') throw new AppError('ERR_INVOICE_ALREADY_PAID');
    }
    // The PSP no longer has it (removed, or a fake PSP that restarted): a new charge below.
    await setChargeStatus(deps.db, reusable.id, remote?.status ?? 'REMOVIDA_PELO_PSP');
  }

  // The Pix API's txid: 26 to 35 letters and digits.
  const txid = randomBytes(24).toString('base64url').replace(/[^a-zA-Z0-9]/g, '').padEnd(26, '0').slice(0, 32);
  const expiresInSeconds = deps.config.PIX_CHARGE_EXPIRES_SECONDS;
  try {
    const charge = await provider.createPixCharge({
      txid,
      amountCents: invoice.valueCents,
      expiresInSeconds,
      description: `Atende: ${invoice.detail}`.slice(0, 140),
    });
    if (charge.amountCents !== invoice.valueCents) throw new PaymentProviderError(`charge amount ${charge.amountCents} differs from the invoice`, 0);
    const row = await insertCharge(deps.db, {
      companyId: ctx.companyId,
      invoiceId: invoice.id,
      txid: charge.txid,
      amountCents: invoice.valueCents,
      status: charge.status,
      copyPaste: charge.copyPaste,
      expiresAt: new Date(charge.createdAt.getTime() + charge.expiresInSeconds * 1000),
    });
    if (!row) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
    return { charge: row, sandbox };
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
async function applyPixNotification(deps: InvoicesDeps, notification: PixNotification): Promise<NotificationOutcome> {
  const charge = await findChargeByTxid(deps.db, notification.txid);
  if (!charge) return 'unknown-charge';
  if (charge.status === 'CONCLUIDA') return 'replay';
  const provider = await deps.payments.provider();
  if (!provider) return 'not-paid';
  const remote = await provider.getPixCharge(charge.txid);
  if (!remote || remote.status !== 'CONCLUIDA') return 'not-paid';
  if (remote.amountCents !== charge.amountCents || remote.paidCents !== charge.amountCents) return 'wrong-amount';

  const now = new Date();
  const result = await deps.db.transaction(async (tx) => {
    if (!(await settleCharge(tx, charge.id, { at: now, endToEndId: notification.endToEndId.slice(0, 64) }))) return null;
    const invoice = await payInvoice(tx, charge.invoiceId, now);
    // A second charge of an invoice already paid: kept as paid, the due date does not move twice.
    if (!invoice) return null;
    const billing = await companyBilling(tx, invoice.companyId);
    const months = RECURRENCE_MONTHS[(billing?.recurrence ?? 'MENSAL') as Recurrence] ?? 1;
    // Calendar dates compared in the company's zone: paid on or before its due day, the next period starts from it.
    const today = dayIn(now, billing?.timezone ?? DEFAULT_TIMEZONE);
    const base = invoice.dueDate >= today ? invoice.dueDate : today;
    const moved = await extendDueDate(tx, invoice.companyId, base, months, now);
    return moved ? { invoiceId: invoice.id, companyId: moved.id, dueDate: moved.dueDate } : null;
  });
  if (!result) return 'replay';
  // Sessions carry the due date: every node forgets them, so the company works again at once.
  await deps.access.changed({ companyId: result.companyId });
  deps.events.emit('payment.concluded', {
    companyId: result.companyId,
    payload: { action: 'CONCLUIDA', invoiceId: result.invoiceId, company: { id: result.companyId, dueDate: presentDueDate(result.dueDate) } },
  });
  return 'paid';
}

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * The PSP's payment notifications: the secret in the path must match (a wrong one is
 * "not found"); each notified Pix is then confirmed by fetching its charge from the
 * PSP (`applyPixNotification`). Answers one outcome per Pix, in order.
 */
export async function receivePixNotifications(
  deps: InvoicesDeps,
  secret: string,
  pixes: { txid?: string; endToEndId: string; amountCents: number }[],
  log: (txid: string, outcome: NotificationOutcome) => void,
): Promise<string[]> {
  if (!sameSecret(secret, deps.config.PAYMENT_WEBHOOK_SECRET)) throw new AppError('ERR_NOT_FOUND');
  const outcomes: string[] = [];
  for (const pix of pixes) {
    if (!pix.txid) {
      outcomes.push('no-txid');
      continue;
    }
    const outcome = await applyPixNotification(deps, { txid: pix.txid, endToEndId: pix.endToEndId, amountCents: pix.amountCents });
    log(pix.txid, outcome);
    outcomes.push(outcome);
  }
  return outcomes;
}
