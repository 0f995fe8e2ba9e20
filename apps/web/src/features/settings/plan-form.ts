import { PLAN_FEATURES, PLAN_LIMITS, type PlanBody } from '@atende/shared';
import type { z } from 'zod';
import type { Plan } from './plans-queries';

/** What the plan dialog's inputs hold (numbers as typed); the shared `PlanBody` checks it. */
export type PlanFormValues = z.input<typeof PlanBody>;

/**
 * A new plan starts with every feature on and every limit 0, no limit (spec part 2 §3);
 * an edit starts from the plan. The price is typed in the Brazilian format (`99,90`).
 */
export function planFormDefaults(plan: Plan | null): PlanFormValues {
  const values: PlanFormValues = { name: plan?.name ?? '', value: moneyText(plan?.value ?? 0) };
  for (const limit of PLAN_LIMITS) values[limit] = plan?.[limit] ?? 0;
  for (const feature of PLAN_FEATURES) values[feature] = plan?.[feature] ?? true;
  return values;
}

/** Plans by name, as the list and the company form's picker show them. */
export function sortPlans(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

/** An amount as the price input shows it: `99,90`, `1234,50`. */
function moneyText(value: number): string {
  return value.toFixed(2).replace('.', ',');
}

/** A plan's limit as the lists show it: 0 is no limit. */
export function limitText(value: number): string {
  return value > 0 ? String(value) : '∞';
}
