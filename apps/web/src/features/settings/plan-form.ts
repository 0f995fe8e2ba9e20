import { PLAN_FEATURES, PLAN_LIMITS, type PlanBody } from '@atende/shared';
import type { z } from 'zod';
import type { Plan } from './plans-queries';

/** What the plan dialog's inputs hold (numbers as typed); the shared `PlanBody` checks it. */
export type PlanFormValues = z.input<typeof PlanBody>;

/** A new plan starts with every feature on and every limit 0 (spec part 2 §3); an edit starts from the plan. */
export function planFormDefaults(plan: Plan | null): PlanFormValues {
  const values: PlanFormValues = { name: plan?.name ?? '', value: plan?.value ?? 0 };
  for (const limit of PLAN_LIMITS) values[limit] = plan?.[limit] ?? 0;
  for (const feature of PLAN_FEATURES) values[feature] = plan?.[feature] ?? true;
  return values;
}

/** Plans by name, as the list and the company form's picker show them. */
export function sortPlans(plans: readonly Plan[]): Plan[] {
  return [...plans].sort((a, b) => a.name.localeCompare(b.name) || a.id - b.id);
}

const reais = new Intl.NumberFormat('pt-BR', { style: 'currency', currency: 'BRL' });

/** Amounts are shown in Brazilian reais whatever the interface language (spec part 2 §9). */
export function formatReais(value: number): string {
  return reais.format(value);
}
