import type { ScheduleEntry } from '@atende/shared';
import { useQuery, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import type { Plan } from './plans-queries';

/** A company as `GET /companies/:id` and `/companies/list` answer it. */
export interface Company {
  id: number;
  name: string;
  email: string;
  phone: string;
  planId: number;
  plan: Plan;
  status: boolean;
  dueDate: string | null;
  recurrence: string;
  schedules: ScheduleEntry[];
  timezone: string;
  campaignsEnabled: boolean;
  createdAt: string;
  updatedAt: string;
}

export const companiesKey = ['companies'] as const;
export const companyKey = (id: number) => ['companies', id] as const;

/** One company: the signed-in user's own (Schedules tab), or any for a super user. */
export function useCompany(id: number | undefined) {
  const { api } = useSession();
  return useQuery({ queryKey: companyKey(id ?? 0), queryFn: () => api.get<Company>(`/companies/${id}`), enabled: Boolean(id) });
}

/** Every company (super users, Companies tab). */
export function useCompanies(enabled = true) {
  const { api } = useSession();
  return useQuery({ queryKey: companiesKey, queryFn: () => api.get<Company[]>('/companies/list'), enabled });
}

/** A saved company replaces its row and its own entry; a new one joins the list (by id, as the server lists them). */
function upsertCompany(list: readonly Company[], company: Company): Company[] {
  const others = list.filter((c) => c.id !== company.id);
  return [...others, company].sort((a, b) => a.id - b.id);
}

export function cacheCompany(queryClient: QueryClient, company: Company): void {
  queryClient.setQueryData<Company[]>(companiesKey, (list) => (list ? upsertCompany(list, company) : list));
  queryClient.setQueryData<Company>(companyKey(company.id), company);
}

export function uncacheCompany(queryClient: QueryClient, id: number): void {
  queryClient.setQueryData<Company[]>(companiesKey, (list) => (list ? list.filter((c) => c.id !== id) : list));
  queryClient.removeQueries({ queryKey: companyKey(id), exact: true });
}
