import { addToCalendarDate, type AgentLoadAnswer, type DashboardAnswer, type TicketsDayAnswer, type TicketsUsersAnswer } from '@atende/shared';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useSession } from '../../api/session';
import { displayTimeZone, today } from '../../i18n/dates';
import { useCompanyEvent } from '../../realtime/socket';

/** What the dashboard reads: a period in days or a date range, and the queue and connection filters. */
export interface DashboardFilter {
  days?: number;
  from?: string;
  to?: string;
  queueIds: number[];
  whatsappIds: number[];
}

const dashboardKey = ['dashboard'] as const;

const lists = (filter: DashboardFilter) => ({
  ...(filter.queueIds.length ? { queueIds: filter.queueIds } : {}),
  ...(filter.whatsappIds.length ? { whatsappIds: filter.whatsappIds } : {}),
});

/** The days a filter covers, as the chart routes take them (`days` resolved in the company's calendar, like the server's). */
function chartDates(filter: DashboardFilter, now = new Date()): { initialDate?: string; finalDate?: string } {
  if (filter.days) {
    const last = today(displayTimeZone(), now);
    return { initialDate: addToCalendarDate(last, { days: 1 - filter.days }), finalDate: last };
  }
  return { ...(filter.from ? { initialDate: filter.from } : {}), ...(filter.to ? { finalDate: filter.to } : {}) };
}

export function useDashboard(filter: DashboardFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...dashboardKey, 'counters', filter],
    queryFn: () => api.get<DashboardAnswer>('/dashboard', { ...(filter.days ? { days: filter.days } : { date_from: filter.from, date_to: filter.to }), ...lists(filter) }),
    placeholderData: keepPreviousData,
  });
}

export function useTicketsUsers(filter: DashboardFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...dashboardKey, 'users', filter],
    queryFn: () => api.get<TicketsUsersAnswer>('/dashboard/ticketsUsers', { ...chartDates(filter), ...lists(filter) }),
    placeholderData: keepPreviousData,
  });
}

export function useTicketsDay(filter: DashboardFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...dashboardKey, 'days', filter],
    queryFn: () => api.get<TicketsDayAnswer>('/dashboard/ticketsDay', { ...chartDates(filter), ...lists(filter) }),
    placeholderData: keepPreviousData,
  });
}

/** Live: a ticket changed somewhere in the company, the dashboard reads again (at most every 2 s). */
export function useDashboardLive(): void {
  const queryClient = useQueryClient();
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  const refresh = () => {
    if (timer.current) return;
    timer.current = setTimeout(() => {
      timer.current = null;
      void queryClient.invalidateQueries({ queryKey: dashboardKey });
    }, 2000);
  };
  useCompanyEvent('ticket', refresh);
  // An agent coming online or going offline (the agents' load and the attendants' status).
  useCompanyEvent('user', refresh);
}

/** Each agent's open tickets against its capacity (auto-assignment, issue 35); read again with the rest on a ticket event. */
export function useAgentLoad() {
  const { api } = useSession();
  return useQuery({ queryKey: [...dashboardKey, 'agentLoad'], queryFn: () => api.get<AgentLoadAnswer>('/dashboard/agentLoad') });
}
