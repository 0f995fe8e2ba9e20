import { parseCardExpiry, requiredText, validCardNumber, validCpfCnpj, validCvv, validZipcode, type PaymentMethod } from '@atende/shared';
import { z } from 'zod';

const optionalText = (max: number) => z.string().trim().max(max, 'validation.tooLong');

/**
 * The whole checkout form (spec part 2 §3 "Checkout form", §5): the address step
 * requires firstName, address2, city, zipcode and country (the zip checked: a CEP in
 * Brazil); `cpfCnpj` is asked when the provider needs it (Asaas: every method); the
 * card step (a card payment) requires the name on the card, its number (Luhn), expiry
 * (MM/YY, not past), CVV (3 digits, 4 for American Express) and the holder's phone.
 * The same rules run on the server (packages/shared's CheckoutBody).
 */
export const CheckoutForm = z
  .object({
    firstName: requiredText(1, 100),
    lastName: optionalText(100),
    address2: requiredText(1, 200),
    city: requiredText(1, 100),
    state: optionalText(100),
    zipcode: requiredText(1, 20),
    country: requiredText(1, 100),
    cpfCnpj: optionalText(20),
    needsCpfCnpj: z.boolean(),
    method: z.enum(['PIX', 'BOLETO', 'CREDIT_CARD']),
    nameOnCard: optionalText(100),
    cardNumber: optionalText(30),
    expiry: optionalText(10),
    cvv: optionalText(4),
    phone: optionalText(20),
  })
  .superRefine((form, ctx) => {
    const problem = (path: keyof typeof form, message: string) => ctx.addIssue({ code: 'custom', path: [path], message });
    if (form.zipcode && !validZipcode(form.zipcode, form.country)) problem('zipcode', 'validation.invalidZip');
    if (form.needsCpfCnpj) {
      if (!form.cpfCnpj) problem('cpfCnpj', 'validation.required');
      else if (!validCpfCnpj(form.cpfCnpj)) problem('cpfCnpj', 'validation.invalidCpfCnpj');
    }
    if (form.method !== 'CREDIT_CARD') return;
    for (const name of ['nameOnCard', 'cardNumber', 'expiry', 'cvv', 'phone'] as const) if (!form[name]) problem(name, 'validation.required');
    if (form.nameOnCard && form.nameOnCard.length < 2) problem('nameOnCard', 'validation.tooShort');
    if (form.cardNumber && !validCardNumber(form.cardNumber)) problem('cardNumber', 'validation.invalidCardNumber');
    if (form.expiry && !parseCardExpiry(form.expiry)) problem('expiry', 'validation.invalidExpiry');
    if (form.cvv && !validCvv(form.cvv, form.cardNumber)) problem('cvv', 'validation.invalidCvv');
    if (form.phone && !/^\d{10,11}$/.test(form.phone.replace(/\D/g, ''))) problem('phone', 'validation.invalidPhone');
  });
export type CheckoutForm = z.infer<typeof CheckoutForm>;

export const ADDRESS_FIELDS = ['firstName', 'lastName', 'address2', 'city', 'state', 'zipcode', 'country'] as const satisfies readonly (keyof CheckoutForm)[];
export const REQUIRED_ADDRESS_FIELDS = new Set<keyof CheckoutForm>(['firstName', 'address2', 'city', 'zipcode', 'country']);
export const CARD_FIELDS = ['nameOnCard', 'cardNumber', 'expiry', 'cvv', 'phone'] as const satisfies readonly (keyof CheckoutForm)[];

/** What each step checks before the next one. */
export const STEP_FIELDS = {
  address: [...ADDRESS_FIELDS, 'cpfCnpj'],
  payment: ['method', ...CARD_FIELDS],
} as const satisfies Record<string, readonly (keyof CheckoutForm)[]>;

/** Card number as typed, grouped by 4 (American Express: 4-6-5), at most 19 digits. */
export function formatCardNumber(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 19);
  if (/^3[47]/.test(digits)) return [digits.slice(0, 4), digits.slice(4, 10), digits.slice(10, 15)].filter(Boolean).join(' ');
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** Expiry as typed: MM/YY. */
export function formatExpiry(value: string): string {
  const digits = value.replace(/\D/g, '').slice(0, 4);
  return digits.length > 2 ? `${digits.slice(0, 2)}/${digits.slice(2)}` : digits;
}

/**
 * The spec numbers the steps 0 address, 1 plan, 2 review and starts at 1
 * (part 2 §2.17, §4). Shown in that numbering the stepper would run backwards
 * (1, then 0, then 2), so it lists them in the order they are visited: the plan
 * (the invoice being paid), then the address, then the review, then the Pix.
 * A provider with more than Pix (Asaas) adds the payment step (3: the method and,
 * for a card, the card's fields) between the address and the review.
 */
export const STEP = { address: 0, plan: 1, review: 2, payment: 3 } as const;
export type CheckoutStep = (typeof STEP)[keyof typeof STEP];
export const FIRST_STEP: CheckoutStep = STEP.plan;

export function visitOrder(methods: readonly PaymentMethod[]): readonly CheckoutStep[] {
  return methods.length > 1 ? [STEP.plan, STEP.address, STEP.payment, STEP.review] : [STEP.plan, STEP.address, STEP.review];
}

export function nextStep(order: readonly CheckoutStep[], step: CheckoutStep): CheckoutStep | null {
  return order[order.indexOf(step) + 1] ?? null;
}

export function previousStep(order: readonly CheckoutStep[], step: CheckoutStep): CheckoutStep | null {
  return order[order.indexOf(step) - 1] ?? null;
}
