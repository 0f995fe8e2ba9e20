import { dayIn, daysBetween, type InvoiceView, type PixCheckoutView, type SubscriptionView } from '@atende/shared';
import type { InvoiceRow, PixChargeRow } from '../../platform/db/schema.js';
import { formatPixAmount } from '../../platform/payments/brcode.js';
import type { CompanyDetail } from '../companies/companies.repo.js';

/**
 * Display status (spec part 2 §4): paid; expired when its due date is before today
 * (the company's today: `timeZone` is the company's) and unpaid; else open.
 */
export function presentInvoice(row: InvoiceRow, timeZone: string, now = new Date()): InvoiceView {
  const status = row.status === 'paid' ? 'paid' : row.dueDate < dayIn(now, timeZone) ? 'expired' : 'open';
  return {
    id: row.id,
    detail: row.detail,
    value: row.valueCents / 100,
    dueDate: row.dueDate,
    status,
    paidAt: row.paidAt?.toISOString() ?? null,
    createdAt: row.createdAt.toISOString(),
  };
}

export function presentCheckout(charge: PixChargeRow, options: { sandbox: boolean; provider: PixCheckoutView['provider']; paid: boolean }): PixCheckoutView {
  return {
    txid: charge.txid,
    invoiceId: charge.invoiceId,
    method: charge.method,
    qrcode: { qrcode: charge.method === 'PIX' ? charge.copyPaste : '' },
    valor: { original: formatPixAmount(charge.amountCents) },
    expiresAt: charge.expiresAt.toISOString(),
    boleto: charge.method === 'BOLETO' ? { line: charge.copyPaste, url: charge.url ?? '' } : null,
    paid: options.paid,
    provider: options.provider,
    sandbox: options.sandbox,
  };
}

/** `GET /subscription`: the company's plan, due date and trial, and whether it can pay and be mailed here. */
export function presentSubscription(
  { company, plan }: CompanyDetail,
  options: { paymentsEnabled: boolean; paymentMethods: SubscriptionView['paymentMethods']; mailEnabled: boolean },
  now = new Date(),
): SubscriptionView {
  const trial = company.trialExpiration;
  const today = dayIn(now, company.timezone);
  return {
    companyId: company.id,
    name: company.name,
    email: company.email,
    plan: { id: plan.id, name: plan.name, value: plan.valueCents / 100 },
    recurrence: company.recurrence,
    dueDate: company.dueDate,
    trialExpiration: trial,
    // Whole days from the company's today to the trial's last day (3 right after sign-up).
    trialDaysLeft: trial ? Math.max(0, daysBetween(today, trial)) : null,
    paymentsEnabled: options.paymentsEnabled,
    paymentMethods: options.paymentMethods,
    mailEnabled: options.mailEnabled,
  };
}
