import { requiredText } from '@atende/shared';
import { z } from 'zod';

const optionalText = (max: number) => z.string().trim().max(max, 'validation.tooLong');

/** The address step (spec part 2 §5): firstName, address2, city, zipcode and country required. */
export const CheckoutAddress = z.object({
  firstName: requiredText(1, 100),
  lastName: optionalText(100),
  address2: requiredText(1, 200),
  city: requiredText(1, 100),
  state: optionalText(100),
  zipcode: requiredText(1, 20),
  country: requiredText(1, 100),
});
export type CheckoutAddress = z.infer<typeof CheckoutAddress>;

export const ADDRESS_FIELDS = ['firstName', 'lastName', 'address2', 'city', 'state', 'zipcode', 'country'] as const satisfies readonly (keyof CheckoutAddress)[];
export const REQUIRED_ADDRESS_FIELDS = new Set<keyof CheckoutAddress>(['firstName', 'address2', 'city', 'zipcode', 'country']);

/**
 * The spec numbers the steps 0 address, 1 plan, 2 review and starts at 1
 * (part 2 §2.17, §4). Shown in that numbering the stepper would run backwards
 * (1, then 0, then 2), so it lists them in the order they are visited: the plan
 * (the invoice being paid), then the address, then the review, then the Pix.
 */
export const STEP = { address: 0, plan: 1, review: 2 } as const;
export type CheckoutStep = (typeof STEP)[keyof typeof STEP];
export const VISIT_ORDER: readonly CheckoutStep[] = [STEP.plan, STEP.address, STEP.review];
export const FIRST_STEP: CheckoutStep = STEP.plan;

export function nextStep(step: CheckoutStep): CheckoutStep | null {
  return VISIT_ORDER[VISIT_ORDER.indexOf(step) + 1] ?? null;
}

export function previousStep(step: CheckoutStep): CheckoutStep | null {
  return VISIT_ORDER[VISIT_ORDER.indexOf(step) - 1] ?? null;
}
