import type { PresentedPlanRow } from '@atende/shared';
import type { PlanRow } from '../../platform/db/schema.js';
import { presentPlan } from '../users/users.presenter.js';

export function presentPlanRow({ createdAt, updatedAt, ...plan }: PlanRow): PresentedPlanRow {
  return { ...presentPlan(plan), createdAt: createdAt.toISOString(), updatedAt: updatedAt.toISOString() };
}
