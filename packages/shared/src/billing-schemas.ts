import { z } from 'zod';
import { flag } from './conventions.js';
import { email, id, requiredText } from './validation.js';

/**
 * Passwords chosen by their owner at sign-up and at reset: 8 to 50 characters with a
 * digit, a lower- and an upper-case letter. The spec asks this at reset (part 2 §5)
 * and only 5–50 at sign-up; both use the stronger rule (docs/architecture.md).
 */
export const strongPassword = () =>
  z
    .string({ error: 'validation.required' })
    .min(1, 'validation.required')
    .min(8, 'validation.passwordRule')
    .max(50, 'validation.tooLong')
    .refine((value) => /\d/.test(value) && /[a-z]/.test(value) && /[A-Z]/.test(value), 'validation.passwordRule');

/**
 * Brazilian phone as the sign-up mask gives it: digits only, 10 or 11 (spec part 2 §2.18).
 * With the country code in front (12 or 13 digits from 55, as whaticket v6's form sends
 * it) it is taken without it.
 */
export const signupPhone = () =>
  z
    .string()
    .transform((value) => value.replace(/\D/g, ''))
    .transform((digits) => (/^55\d{10,11}$/.test(digits) ? digits.slice(2) : digits))
    .refine((digits) => digits.length >= 10 && digits.length <= 11, 'validation.invalidPhone');

/**
 * Public sign-up (spec part 2 §3 "Sign-up payload"). `recurrence`, `dueDate`,
 * `status` and `campaignsEnabled` may be sent by the spec's client; the server sets
 * them itself (MENSAL, now + 3 days, active, enabled) and ignores what is sent.
 */
export const SignupBody = z.object({
  name: requiredText(2, 50),
  email: email(),
  phone: signupPhone(),
  password: strongPassword(),
  planId: id(),
});
export type SignupBody = z.infer<typeof SignupBody>;

export const EmailParams = z.object({ email: email() });

export const PASSWORD_RESET_CODE_LENGTH = 6;
const resetCode = () => z.string({ error: 'validation.required' }).regex(/^\d{6}$/, 'validation.invalidCode');

/**
 * A password reset: the web app sends it in the body (nothing in the URL); the spec's
 * client in the path, `POST /resetpasswords/{email}/{token}/{newPassword}` (redacted
 * from logs): the same fields, so one schema checks both.
 */
export const ResetPasswordBody = z.object({
  email: email(),
  token: resetCode(),
  newPassword: strongPassword(),
});
export type ResetPasswordBody = z.infer<typeof ResetPasswordBody>;

/** How an invoice can be paid: Pix (every provider), boleto and credit card (Asaas). */
export const PAYMENT_METHODS = ['PIX', 'BOLETO', 'CREDIT_CARD'] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

const digitsOf = (value: string) => value.replace(/\D/g, '');

/** Luhn's check digit (ISO/IEC 7812): what every card number carries. */
export function luhnValid(digits: string): boolean {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let digit = Number(digits[digits.length - 1 - i]);
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/** A card number: 13 to 19 digits (spaces and hyphens allowed between them) with a valid Luhn digit. */
export function validCardNumber(value: string): boolean {
  if (!/^[\d -]+$/.test(value)) return false;
  const digits = digitsOf(value);
  return digits.length >= 13 && digits.length <= 19 && luhnValid(digits);
}

/** The card's expiry as MM/YY (or MM/YYYY): a real month, not before the current one. */
export function parseCardExpiry(value: string, now = new Date()): { month: number; year: number } | null {
  const match = /^\s*(\d{1,2})\s*\/\s*(\d{2}|\d{4})\s*$/.exec(value);
  if (!match) return null;
  const month = Number(match[1]);
  const year = match[2]!.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return null;
  const current = now.getFullYear() * 12 + now.getMonth();
  const expiry = year * 12 + (month - 1);
  // Cards are valid to the end of their month; more than 20 years ahead is a typing error.
  if (expiry < current || expiry > current + 20 * 12) return null;
  return { month, year };
}

/** The security code: 3 digits, 4 on American Express cards (numbers starting 34 or 37). */
export function validCvv(value: string, cardNumber = ''): boolean {
  const amex = /^3[47]/.test(digitsOf(cardNumber));
  return amex ? /^\d{4}$/.test(value.trim()) : /^\d{3,4}$/.test(value.trim());
}

function cpfValid(digits: string): boolean {
  if (digits.length !== 11 || /^(\d)\1+$/.test(digits)) return false;
  for (const length of [9, 10]) {
    let sum = 0;
    for (let i = 0; i < length; i++) sum += Number(digits[i]) * (length + 1 - i);
    const check = ((sum * 10) % 11) % 10;
    if (check !== Number(digits[length])) return false;
  }
  return true;
}

function cnpjValid(digits: string): boolean {
  if (digits.length !== 14 || /^(\d)\1+$/.test(digits)) return false;
  for (const length of [12, 13]) {
    let sum = 0;
    let weight = length - 7;
    for (let i = 0; i < length; i++) {
      sum += Number(digits[i]) * weight;
      weight = weight === 2 ? 9 : weight - 1;
    }
    const rest = sum % 11;
    if ((rest < 2 ? 0 : 11 - rest) !== Number(digits[length])) return false;
  }
  return true;
}

/** A CPF (11 digits) or CNPJ (14 digits), punctuation allowed, with valid check digits: Asaas needs one for every payer. */
export function validCpfCnpj(value: string): boolean {
  if (!/^[\d.\-/ ]+$/.test(value)) return false;
  const digits = digitsOf(value);
  return digits.length === 11 ? cpfValid(digits) : cnpjValid(digits);
}

const BRAZIL = /^(br|brasil|brazil)$/i;

/** A postal code: a CEP (8 digits, 99999-999) in Brazil, else 3 to 10 letters, digits, spaces or hyphens. */
export function validZipcode(value: string, country = ''): boolean {
  const text = value.trim();
  if (BRAZIL.test(country.trim()) || !country.trim()) return /^\d{5}-?\d{3}$/.test(text);
  return /^[A-Za-z0-9][A-Za-z0-9 -]{1,8}[A-Za-z0-9]$/.test(text);
}

const optionalField = (max: number) => z.string().max(max, 'validation.tooLong').optional();

/**
 * Checkout (spec part 2 §3 "Checkout form"). Only `invoiceId` decides what is
 * charged; the address and plan fields are the form's and are not trusted for the
 * amount. `method` picks Pix (the default), boleto or credit card among what the
 * provider offers. Card fields (spec part 2 §5: every card field required, the number,
 * expiry and CVV checked) are required and checked for a card payment; they go to the
 * provider and are never stored. `cpfCnpj` and `phone` are the payer's, which Asaas
 * needs (the service requires them where it does).
 */
export const CheckoutBody = z
  .object({
    invoiceId: id(),
    method: z.enum(PAYMENT_METHODS, { error: 'validation.invalidValue' }).optional(),
    firstName: optionalField(100),
    lastName: optionalField(100),
    address2: optionalField(200),
    city: optionalField(100),
    state: optionalField(100),
    zipcode: optionalField(20),
    country: optionalField(100),
    useAddressForPaymentDetails: flag().optional(),
    cpfCnpj: optionalField(20),
    phone: optionalField(20),
    nameOnCard: optionalField(100),
    cardNumber: optionalField(30),
    expiry: optionalField(10),
    cvv: optionalField(4),
  })
  .superRefine((body, ctx) => {
    if (body.method !== 'CREDIT_CARD') return;
    const problem = (path: string, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    for (const name of ['firstName', 'address2', 'city', 'zipcode', 'country', 'nameOnCard', 'cardNumber', 'expiry', 'cvv', 'cpfCnpj', 'phone'] as const) {
      if (!body[name]?.trim()) problem(name, 'validation.required');
    }
    if (body.zipcode?.trim() && !validZipcode(body.zipcode, body.country)) problem('zipcode', 'validation.invalidZip');
    if (body.cardNumber?.trim() && !validCardNumber(body.cardNumber)) problem('cardNumber', 'validation.invalidCardNumber');
    if (body.expiry?.trim() && !parseCardExpiry(body.expiry)) problem('expiry', 'validation.invalidExpiry');
    if (body.cvv?.trim() && !validCvv(body.cvv, body.cardNumber)) problem('cvv', 'validation.invalidCvv');
    if (body.cpfCnpj?.trim() && !validCpfCnpj(body.cpfCnpj)) problem('cpfCnpj', 'validation.invalidCpfCnpj');
    if (body.phone?.trim() && !/^\d{10,11}$/.test(body.phone.replace(/\D/g, ''))) problem('phone', 'validation.invalidPhone');
  });
export type CheckoutBody = z.infer<typeof CheckoutBody>;

export const INVOICE_STATUSES = ['paid', 'open', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** An invoice as the API presents it: `value` in reais (DECISIONS.md §10 keeps cents in the database). */
export const InvoiceViewSchema = z.object({
  id: z.number().int(),
  detail: z.string(),
  value: z.number(),
  dueDate: z.string().describe('YYYY-MM-DD'),
  status: z.enum(INVOICE_STATUSES),
  paidAt: z.string().nullable(),
  createdAt: z.string(),
});
export type InvoiceView = z.output<typeof InvoiceViewSchema>;

/**
 * What `POST /subscription` answers: the Pix API's shape (`qrcode.qrcode`, `valor.original`)
 * plus ours. For a boleto `qrcode.qrcode` is empty and `boleto` has its digitable line and
 * PDF; a card payment answers `paid` (the card was charged) and no code.
 */
export const PixCheckoutViewSchema = z.object({
  txid: z.string(),
  invoiceId: z.number().int(),
  method: z.enum(PAYMENT_METHODS),
  qrcode: z.object({ qrcode: z.string() }),
  valor: z.object({ original: z.string() }),
  expiresAt: z.string(),
  /** Boleto only: the digitable line (linha digitável) and the provider's PDF. */
  boleto: z.object({ line: z.string(), url: z.string() }).nullable(),
  /** True when the charge is already paid (an approved card). */
  paid: z.boolean(),
  /** The provider that holds the charge. */
  provider: z.enum(['efi', 'fake', 'asaas']),
  /** True when the charge went to a local fake PSP: nothing is really paid. */
  sandbox: z.boolean(),
});
export type PixCheckoutView = z.output<typeof PixCheckoutViewSchema>;

/** `company-{id}-payment` (spec part 2 §7). */
export interface PaymentEventPayload {
  action: 'CONCLUIDA';
  invoiceId: number;
  company: { id: number; dueDate: string };
}

/** `GET /subscription`: what the subscription page shows. */
export const SubscriptionViewSchema = z.object({
  companyId: z.number().int(),
  name: z.string(),
  email: z.string(),
  plan: z.object({ id: z.number().int(), name: z.string(), value: z.number() }),
  recurrence: z.string(),
  dueDate: z.string().nullable(),
  trialExpiration: z.string().nullable(),
  /** Whole days left of the trial, rounded up; 0 once it ended; null without a trial. */
  trialDaysLeft: z.number().int().nullable(),
  /** Whether a charge can be made (a PSP is configured). */
  paymentsEnabled: z.boolean(),
  /** What the configured provider takes (Efí: Pix; Asaas: Pix, boleto, card); empty when payments are off. */
  paymentMethods: z.array(z.enum(PAYMENT_METHODS)),
  /** Whether password-reset and sign-up e-mails can be sent. */
  mailEnabled: z.boolean(),
});
export type SubscriptionView = z.output<typeof SubscriptionViewSchema>;

/** What the public sign-up and reset pages need to know before they are used. */
export const PublicAuthOptionsSchema = z.object({ signupEnabled: z.boolean(), mailEnabled: z.boolean() });
export type PublicAuthOptions = z.output<typeof PublicAuthOptionsSchema>;
