import type { PlanRow } from '../../platform/db/schema.js';
import { presentPlan } from '../users/users.presenter.js';

export function presentPlanRow({ createdAt, updatedAt, ...plan }: PlanRow) {
  return { ...presentPlan(plan), createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}
