import { randomBytes, timingSafeEqual } from 'node:crypto';
import { dayIn, DEFAULT_TIMEZONE, parseCardExpiry, presentDueDate, RECURRENCE_MONTHS, validCpfCnpj, type CheckoutBody, type PaymentEventPayload, type PaymentMethod, type PaymentNotificationOutcome, type PixWebhookAnswer, type Recurrence, type WebhookAddressCheck } from '@atende/shared';
import type { InvoiceRow, PixChargeRow } from '../../platform/db/schema.js';
import { recordAudit } from '../../platform/audit/audit-log.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireSuper } from '../../platform/http/guards.js';
import type { PaymentProvider, PixNotification } from '../../platform/payments/payment-provider.js';
import { PaymentProviderError } from '../../platform/payments/efi-pix.provider.js';
import { ASAAS_PAID_EVENTS, AsaasRefusal, type AsaasPayment, type AsaasProvider } from '../../platform/payments/asaas.provider.js';
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
  listInvoices,
  pageInvoices,
  payInvoice,
  setChargeStatus,
  settleCharge,
} from './invoices.repo.js';
import { asaasWebhookToken, type Payments } from './payments.js';

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
  // In the invoiced company's log (the invoice is made by its own statement, before this entry).
  await recordAudit(deps.db, ctx, { action: 'invoice.issued', entityId: issued.invoice.id, changes: { created: issued.created, dueDate: issued.invoice.dueDate }, companyId });
  return { ...issued, timeZone: company.company.timezone };
}

/** `GET /invoices/all`: the company's invoices, for its admins (also while it is overdue). */
export function invoicePage(deps: Pick<Platform, 'db'>, ctx: RequestContext, query: { searchParam: string; pageNumber: number }) {
  requireAdmin(ctx);
  return pageInvoices(deps.db, ctx, query);
}

/** `GET /invoices/list` (a whaticket v6 hook): every invoice of the company, the latest first (at most 500). */
export function allInvoices(deps: Pick<Platform, 'db'>, ctx: RequestContext) {
  requireAdmin(ctx);
  return listInvoices(deps.db, ctx, 500);
}

/** `GET /invoices/:id` (a whaticket v6 hook): one invoice of the company; another company's is not found. */
export async function showInvoice(deps: Pick<Platform, 'db'>, ctx: RequestContext, id: number) {
  requireAdmin(ctx);
  const invoice = await findInvoice(deps.db, ctx, id);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  return invoice;
}

/** `GET /subscription`: the admin's company with its plan, and whether it can pay and be mailed here. */
export async function showSubscription(
  deps: Pick<Platform, 'db' | 'config' | 'mailer'>,
  ctx: RequestContext,
  payments: Pick<Payments, 'methods'>,
): Promise<{ detail: CompanyDetail; paymentsEnabled: boolean; paymentMethods: PaymentMethod[]; mailEnabled: boolean }> {
  requireAdmin(ctx);
  const detail = await findCompany(deps.db, ctx.companyId);
  if (!detail) throw new AppError('ERR_NO_COMPANY_FOUND');
  const paymentMethods = await payments.methods();
  return { detail, paymentsEnabled: paymentMethods.length > 0, paymentMethods, mailEnabled: deps.mailer.configured };
}

/** What a checkout made: the stored charge, and whether it is a local fake's (nothing really paid) and already paid (a card). */
export interface CheckoutResult {
  charge: PixChargeRow;
  sandbox: boolean;
  provider: 'efi' | 'fake' | 'asaas';
  paid: boolean;
}

/**
 * `POST /subscription`: a charge for one of the company's open invoices, by the method
 * chosen among the provider's (Pix by default). The amount is the invoice's, read here;
 * nothing the form sends changes it. A charge made earlier that can still be paid is
 * shown again. `remoteIp` is the payer's address, which Asaas asks with a card.
 */
export async function checkout(deps: InvoicesDeps, ctx: RequestContext, body: CheckoutBody, remoteIp = ''): Promise<CheckoutResult> {
  requireAdmin(ctx);
  const invoice = await findInvoice(deps.db, ctx, body.invoiceId);
  if (!invoice) throw new AppError('ERR_NO_INVOICE_FOUND');
  if (invoice.status === 'paid') throw new AppError('ERR_INVOICE_ALREADY_PAID');
  const active = await deps.payments.provider();
  if (!active) throw new AppError('ERR_PAYMENTS_UNAVAILABLE');
  const method = body.method ?? 'PIX';
  if (!active.methods.includes(method)) throw new AppError('ERR_PAYMENT_METHOD_UNAVAILABLE');
  try {
    const result = active.kind === 'asaas' ? await checkoutAsaas(deps, ctx, invoice, body, method, active.asaas, remoteIp) : await checkoutPix(deps, ctx, invoice, active.pix);
    // After the provider answered (a charge is not a transaction of ours): who started paying which invoice, how.
    await recordAudit(deps.db, ctx, { action: 'invoice.checkout', entityId: invoice.id, changes: { method, provider: active.kind } });
    return result;
  } catch (error) {
    if (error instanceof AsaasRefusal) throw new AppError('ERR_PAYMENT_REFUSED', undefined, { message: (error.mensagem ?? '').slice(0, 300) });
    if (error instanceof PaymentProviderError) throw new AppError('ERR_PAYMENTS_UNAVAILABLE', undefined, { reason: error.message.slice(0, 200) });
    throw error;
  }
}

async function checkoutPix(deps: InvoicesDeps, ctx: RequestContext, invoice: InvoiceRow, provider: PaymentProvider): Promise<CheckoutResult> {
  const sandbox = provider.kind === 'fake';
  const result = (charge: PixChargeRow): CheckoutResult => ({ charge, sandbox, provider: provider.kind, paid: false });

  const reusable = await findOpenCharge(deps.db, ctx, invoice.id, new Date(Date.now() + REUSE_CHARGE_MS), { provider: 'pix', method: 'PIX' });
  if (reusable) {
    const remote = await provider.getPixCharge(reusable.txid).catch(() => undefined);
    // The PSP could not be asked now: the stored charge is still the best answer.
    if (remote === undefined || remote?.status === 'ATIVA') return result(reusable);
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
  return result(row);
}

/** Asaas's dates are Brazil's (YYYY-MM-DD); a due date before today is refused there. */
const BRAZIL_TIME_ZONE = 'America/Sao_Paulo';
function brazilDate(at: Date): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: BRAZIL_TIME_ZONE, year: 'numeric', month: '2-digit', day: '2-digit' }).format(at);
}
/** "YYYY-MM-DD[ HH:mm:ss]" in Brazil's time (UTC-3, no daylight saving since 2019) as an instant; the day's end without a time. */
function brazilInstant(text: string): Date {
  const [day = '', time = '23:59:59'] = text.trim().split(' ');
  const parsed = new Date(`${day}T${time}-03:00`);
  return Number.isNaN(parsed.getTime()) ? new Date(Date.now() + 86_400_000) : parsed;
}

/** The payer's field errors Asaas would refuse later, told now as a 400 with the fields. */
function requirePayer(body: CheckoutBody): { cpfCnpj: string; name: string } {
  const fields: Record<string, string[]> = {};
  if (!body.firstName?.trim()) fields.firstName = ['Required'];
  if (!body.cpfCnpj?.trim()) fields.cpfCnpj = ['Required'];
  else if (!validCpfCnpj(body.cpfCnpj)) fields.cpfCnpj = ['Invalid CPF or CNPJ'];
  if (Object.keys(fields).length > 0) throw new AppError('ERR_VALIDATION', undefined, { message: 'The payer needs a name and a CPF or CNPJ', fields });
  return { cpfCnpj: body.cpfCnpj!.replace(/\D/g, ''), name: [body.firstName, body.lastName].map((part) => part?.trim()).filter(Boolean).join(' ') };
}

/** The number of the street address ("Rua A, 123" → "123"); Asaas's card holder needs one. */
function addressNumber(address: string): string {
  return /,\s*(\d+[A-Za-z]?)\b/.exec(address)?.[1] ?? /\b(\d+)\b/.exec(address)?.[1] ?? 'S/N';
}

async function checkoutAsaas(
  deps: InvoicesDeps,
  ctx: RequestContext,
  invoice: InvoiceRow,
  body: CheckoutBody,
  method: PaymentMethod,
  provider: AsaasProvider,
  remoteIp: string,
): Promise<CheckoutResult> {
  const result = (charge: PixChargeRow, paid = false): CheckoutResult => ({ charge, sandbox: provider.sandbox, provider: 'asaas', paid });
  const payer = requirePayer(body);

  // A Pix or boleto made earlier that can still be paid is shown again (a card is charged each time it is sent).
  if (method !== 'CREDIT_CARD') {
    const reusable = await findOpenCharge(deps.db, ctx, invoice.id, new Date(Date.now() + REUSE_CHARGE_MS), { provider: 'asaas', method });
    if (reusable) {
      const remote = await provider.getPayment(reusable.txid).catch(() => undefined);
      if (remote === undefined || remote?.state === 'waiting') return result(reusable);
      if (remote?.state === 'paid') {
        const outcome = await applyAsaasPayment(deps, reusable.txid);
        if (outcome === 'paid' || outcome === 'replay') throw new AppError('ERR_INVOICE_ALREADY_PAID');
      }
      await setChargeStatus(deps.db, reusable.id, 'REMOVIDA_PELO_PSP');
    }
  }

  // Asaas writes to the payer: the company's billing e-mail, else the admin's.
  const email = (await findCompany(deps.db, ctx.companyId))?.company.email || ctx.user.email;
  const phone = body.phone?.replace(/\D/g, '') || undefined;
  const postalCode = body.zipcode?.replace(/\D/g, '') || undefined;
  const customer = await provider.createCustomer({
    name: payer.name,
    cpfCnpj: payer.cpfCnpj,
    email,
    phone,
    postalCode,
    externalReference: `company-${ctx.companyId}`,
  });
  const now = new Date();
  const dueDate = brazilDate(method === 'BOLETO' ? new Date(now.getTime() + deps.config.BOLETO_DAYS_TO_PAY * 86_400_000) : now);
  let card: Parameters<AsaasProvider['createPayment']>[0]['card'];
  if (method === 'CREDIT_CARD') {
    // The schema checked every card field; nothing of them is stored or logged.
    const expiry = parseCardExpiry(body.expiry ?? '');
    if (!expiry) throw new AppError('ERR_VALIDATION', undefined, { fields: { expiry: ['Invalid expiry date: use MM/YY'] } });
    card = {
      creditCard: {
        holderName: (body.nameOnCard ?? '').trim(),
        number: (body.cardNumber ?? '').replace(/\D/g, ''),
        expiryMonth: String(expiry.month).padStart(2, '0'),
        expiryYear: String(expiry.year),
        ccv: (body.cvv ?? '').trim(),
      },
      holder: {
        name: payer.name,
        email,
        cpfCnpj: payer.cpfCnpj,
        postalCode: postalCode ?? '',
        addressNumber: addressNumber(body.address2 ?? ''),
        phone: phone ?? '',
      },
      remoteIp,
    };
  }
  const payment = await provider.createPayment({
    customer,
    method,
    amountCents: invoice.valueCents,
    dueDate,
    description: `Atende: ${invoice.detail}`,
    externalReference: invoiceReference(invoice.id),
    card,
  });
  if (payment.amountCents !== invoice.valueCents) throw new PaymentProviderError(`payment amount ${payment.amountCents} differs from the invoice`, 0);

  let copyPaste = '';
  let expiresAt = now;
  if (method === 'PIX') {
    const qr = await provider.pixQrCode(payment.id);
    copyPaste = qr.payload;
    expiresAt = brazilInstant(qr.expirationDate);
  } else if (method === 'BOLETO') {
    copyPaste = (await provider.identificationField(payment.id)).identificationField;
    expiresAt = brazilInstant(payment.dueDate);
  }
  const row = await insertCharge(deps.db, {
    companyId: ctx.companyId,
    invoiceId: invoice.id,
    txid: payment.id,
    amountCents: invoice.valueCents,
    status: 'ATIVA',
    copyPaste,
    provider: 'asaas',
    method,
    url: method === 'BOLETO' ? (payment.bankSlipUrl ?? payment.invoiceUrl) : null,
    expiresAt,
  });
  if (!row) throw new AppError('ERR_INTERNAL_SERVER_ERROR');
  if (payment.state !== 'paid') return result(row);
  // An authorised card: settled now, as its webhook will find (a replay then).
  const outcome = await applyAsaasPayment(deps, payment.id);
  return result(row, outcome === 'paid' || outcome === 'replay');
}

/** What an Asaas payment of ours names as its `externalReference`: the invoice it pays. */
function invoiceReference(invoiceId: number): string {
  return `invoice-${invoiceId}`;
}

/** What a notification led to, for logs and tests. */
export type NotificationOutcome = PaymentNotificationOutcome;

/**
 * A PSP says a Pix arrived. It is trusted only after the charge is fetched back from
 * the PSP: paid, and for exactly the invoice's amount. Then, once (the charge and the
 * invoice change state with conditional updates in one transaction, so a replay or
 * a second node finds nothing to do), the invoice is paid and the company's due date
 * moves by its recurrence: from the invoice's due date, or from now when it was paid
 * after it (an overdue company does not pay for the days it could not work).
 */
async function applyPixNotification(deps: InvoicesDeps, notification: PixNotification): Promise<NotificationOutcome> {
  const charge = await findChargeByTxid(deps.db, notification.txid, 'pix');
  if (!charge) return 'unknown-charge';
  if (charge.status === 'CONCLUIDA') return 'replay';
  const active = await deps.payments.provider();
  if (active?.kind !== 'pix') return 'not-paid';
  const remote = await active.pix.getPixCharge(charge.txid);
  if (!remote || remote.status !== 'CONCLUIDA') return 'not-paid';
  if (remote.amountCents !== charge.amountCents || remote.paidCents !== charge.amountCents) return 'wrong-amount';
  return settleInvoice(deps, charge, notification.endToEndId);
}

/**
 * An Asaas payment said to be paid (its webhook, or a card approved at checkout). Trusted
 * only after it is fetched back from Asaas with the platform's key: paid (RECEIVED,
 * CONFIRMED), for exactly the charge's amount, and naming the charge's own invoice, so an
 * event can only pay the invoice (and company) the charge was made for.
 */
async function applyAsaasPayment(deps: InvoicesDeps, paymentId: string): Promise<NotificationOutcome> {
  const charge = await findChargeByTxid(deps.db, paymentId, 'asaas');
  if (!charge) return 'unknown-charge';
  if (charge.status === 'CONCLUIDA') return 'replay';
  const active = await deps.payments.provider();
  if (active?.kind !== 'asaas') return 'not-paid';
  const remote: AsaasPayment | null = await active.asaas.getPayment(charge.txid);
  if (!remote || remote.state !== 'paid') return 'not-paid';
  if (remote.amountCents !== charge.amountCents) return 'wrong-amount';
  if (remote.externalReference !== invoiceReference(charge.invoiceId)) return 'wrong-invoice';
  return settleInvoice(deps, charge, '');
}

/**
 * Once (the charge and the invoice change state with conditional updates in one
 * transaction, so a replay or a second node finds nothing to do), the invoice is paid
 * and the company's due date moves by its recurrence: from the invoice's due date, or
 * from now when it was paid after it (an overdue company does not pay for the days it
 * could not work).
 */
async function settleInvoice(deps: InvoicesDeps, charge: PixChargeRow, endToEndId: string): Promise<NotificationOutcome> {
  const now = new Date();
  const result = await deps.db.transaction(async (tx) => {
    if (!(await settleCharge(tx, charge.id, { at: now, endToEndId: endToEndId.slice(0, 64) }))) return null;
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
): Promise<PixWebhookAnswer['outcomes']> {
  if (!sameSecret(secret, deps.config.PAYMENT_WEBHOOK_SECRET)) throw new AppError('ERR_NOT_FOUND');
  const outcomes: PixWebhookAnswer['outcomes'] = [];
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

/** Whether a webhook call carries the token Asaas was given for it (`asaas-access-token`), compared in constant time. */
export function asaasWebhookAuthentic(deps: Pick<Platform, 'config'>, token: string | undefined): boolean {
  return typeof token === 'string' && sameSecret(token, asaasWebhookToken(deps.config));
}

/**
 * One Asaas event (the webhook checked its token): a payment confirmed or received is
 * confirmed by fetching it back (`applyAsaasPayment`); other events are acknowledged
 * and ignored, so Asaas does not pause its queue.
 */
export async function receiveAsaasEvent(deps: InvoicesDeps, event: { event: string; paymentId?: string }): Promise<NotificationOutcome | 'ignored'> {
  if (!(ASAAS_PAID_EVENTS as readonly string[]).includes(event.event) || !event.paymentId) return 'ignored';
  return applyAsaasPayment(deps, event.paymentId);
}

/**
 * `POST /subscription/validate/webhook` (whaticket v6's Gerencianet settings, super users): v6
 * calls the address to see that it answers. Atende registers its own PSP webhook (PIX_PROVIDER,
 * `/payments/pix/webhook/…`) and calls no address a user types here (ARCHITECTURE.md §3 rule 13):
 * the address is checked for form only, an `https` one being what a PSP accepts.
 */
export function checkWebhookAddress(url: string): WebhookAddressCheck {
  const secure = new URL(url).protocol === 'https:';
  return {
    success: secure,
    message: secure
      ? 'The address is well formed. Atende registers its own webhook with the payment provider and does not call this one.'
      : 'A payment provider calls https addresses only.',
    url,
  };
}
