import type { PresentedPlan } from '@atende/shared';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

/** A plan as `GET /plans/all` answers it (value in reais). */
export interface Plan extends PresentedPlan {
  createdAt: string;
  updatedAt: string;
}

export const plansKey = ['plans'] as const;

/** Every plan, by name (super users: the Plans tab and the company form's picker). */
export function usePlans(enabled = true) {
  const { api } = useSession();
  return useQuery({ queryKey: plansKey, queryFn: () => api.get<Plan[]>('/plans/all'), enabled });
}
