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

/** Brazilian phone as the sign-up mask gives it: digits only, 10 or 11 (spec part 2 §2.18). */
export const signupPhone = () =>
  z
    .string()
    .transform((value) => value.replace(/\D/g, ''))
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

/**
 * Checkout (spec part 2 §3 "Checkout form"). Only `invoiceId` decides what is
 * charged; the address and plan fields are the form's and are not trusted for the
 * amount. Card fields are accepted and ignored: the charge is Pix.
 */
export const CheckoutBody = z.object({
  invoiceId: id(),
  firstName: z.string().max(100, 'validation.tooLong').optional(),
  lastName: z.string().max(100, 'validation.tooLong').optional(),
  address2: z.string().max(200, 'validation.tooLong').optional(),
  city: z.string().max(100, 'validation.tooLong').optional(),
  state: z.string().max(100, 'validation.tooLong').optional(),
  zipcode: z.string().max(20, 'validation.tooLong').optional(),
  country: z.string().max(100, 'validation.tooLong').optional(),
  useAddressForPaymentDetails: flag().optional(),
});
export type CheckoutBody = z.infer<typeof CheckoutBody>;

export const INVOICE_STATUSES = ['paid', 'open', 'expired'] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];

/** An invoice as the API presents it: `value` in reais (DECISIONS.md §10 keeps cents in the database). */
export interface InvoiceView {
  id: number;
  detail: string;
  value: number;
  dueDate: string;
  status: InvoiceStatus;
  paidAt: string | null;
  createdAt: string;
}

/** What `POST /subscription` answers: the Pix API's shape (`qrcode.qrcode`, `valor.original`) plus ours. */
export interface PixCheckoutView {
  txid: string;
  invoiceId: number;
  qrcode: { qrcode: string };
  valor: { original: string };
  expiresAt: string;
  /** True when the charge went to the local fake PSP: nothing is really paid. */
  sandbox: boolean;
}

/** `company-{id}-payment` (spec part 2 §7). */
export interface PaymentEventPayload {
  action: 'CONCLUIDA';
  invoiceId: number;
  company: { id: number; dueDate: string };
}

/** `GET /subscription`: what the subscription page shows. */
export interface SubscriptionView {
  companyId: number;
  name: string;
  email: string;
  plan: { id: number; name: string; value: number };
  recurrence: string;
  dueDate: string | null;
  trialExpiration: string | null;
  /** Whole days left of the trial, rounded up; 0 once it ended; null without a trial. */
  trialDaysLeft: number | null;
  /** Whether a Pix charge can be made (a PSP is configured). */
  paymentsEnabled: boolean;
  /** Whether password-reset and sign-up e-mails can be sent. */
  mailEnabled: boolean;
}

/** What the public sign-up and reset pages need to know before they are used. */
export interface PublicAuthOptions {
  signupEnabled: boolean;
  mailEnabled: boolean;
}
