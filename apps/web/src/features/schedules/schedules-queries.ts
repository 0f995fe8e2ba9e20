import type { PresentedSchedule } from '@atende/shared';
import { useInfiniteQuery, useQueryClient, type InfiniteData, type QueryClient } from '@tanstack/react-query';
import { useSession } from '../../api/session';
import { useCompanyEvent } from '../../realtime/socket';

export type Schedule = PresentedSchedule;

export interface SchedulePage {
  schedules: Schedule[];
  hasMore: boolean;
}

type SchedulePages = InfiniteData<SchedulePage, number>;

const scheduleKeys = {
  lists: ['schedules', 'page'] as const,
  list: (search: string) => ['schedules', 'page', search] as const,
};

/** Spec part 2 §7: `GET /schedules/` (searchParam, pageNumber) answers schedules and hasMore. */
export function useSchedulePages(search: string) {
  const { api } = useSession();
  return useInfiniteQuery({
    queryKey: scheduleKeys.list(search),
    queryFn: ({ pageParam }) => api.get<SchedulePage>('/schedules', { searchParam: search, pageNumber: pageParam }),
    initialPageParam: 1,
    getNextPageParam: (last, pages) => (last.hasMore ? pages.length + 1 : undefined),
  });
}

function matchesSearch(schedule: Schedule, search: string): boolean {
  return !search || schedule.body.toLowerCase().includes(search) || schedule.contact.name.toLowerCase().includes(search);
}

/** Live create/update (spec part 2 §4): replace in place, or add to a list whose search it matches. */
function upsertSchedule(data: SchedulePages, schedule: Schedule, search: string): SchedulePages {
  const listed = data.pages.some((page) => page.schedules.some((s) => s.id === schedule.id));
  if (listed) return { ...data, pages: data.pages.map((page) => ({ ...page, schedules: page.schedules.map((s) => (s.id === schedule.id ? schedule : s)) })) };
  if (!matchesSearch(schedule, search) || data.pages.length === 0) return data;
  const [first, ...rest] = data.pages as [SchedulePage, ...SchedulePage[]];
  return { ...data, pages: [{ ...first, schedules: [schedule, ...first.schedules] }, ...rest] };
}

function removeSchedule(data: SchedulePages, id: number): SchedulePages {
  return { ...data, pages: data.pages.map((page) => ({ ...page, schedules: page.schedules.filter((s) => s.id !== id) })) };
}

export function cacheSavedSchedule(queryClient: QueryClient, schedule: Schedule): void {
  for (const [key, data] of queryClient.getQueriesData<SchedulePages>({ queryKey: scheduleKeys.lists })) {
    if (data) queryClient.setQueryData(key, upsertSchedule(data, schedule, typeof key[2] === 'string' ? key[2] : ''));
  }
}

export function cacheRemovedSchedule(queryClient: QueryClient, id: number): void {
  queryClient.setQueriesData<SchedulePages>({ queryKey: scheduleKeys.lists }, (data) => (data ? removeSchedule(data, id) : data));
}

interface ScheduleEvent {
  action: 'create' | 'update' | 'delete';
  schedule?: Schedule;
  scheduleId?: number | string;
}

/** `company-{id}-schedule` (spec part 2 §7): create, update (status changes too), delete. */
export function useScheduleEvents(): void {
  const queryClient = useQueryClient();
  useCompanyEvent<ScheduleEvent>('schedule', (payload) => {
    if (payload.action === 'delete') {
      const id = Number(payload.scheduleId ?? payload.schedule?.id);
      if (Number.isInteger(id)) cacheRemovedSchedule(queryClient, id);
    } else if (payload.schedule) cacheSavedSchedule(queryClient, payload.schedule);
  });
}
