import { z } from 'zod';
import { calendarDate } from './validation.js';

/** Spec part 1 §9: the dashboard's period options, in days. */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
/** The longest range the dashboard reads at once. */
export const DASHBOARD_MAX_DAYS = 400;

/** Ids as the spec client sends them: a JSON array, a comma list, or repeated keys. */
const idList = z
  .union([z.string().max(2000), z.array(z.string().max(20)).max(200)])
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : value.replace(/^\[|\]$/g, '').split(',')).map((part) => part.trim()).filter(Boolean);
    const ids = parts.map(Number);
    if (ids.some((id) => !Number.isInteger(id) || id < 1 || id > 2_147_483_647)) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalid' });
      return z.NEVER;
    }
    return ids.length ? ids : undefined;
  })
  .optional();

const filters = {
  queueIds: idList,
  whatsappIds: idList,
  /** Accepted for compatibility and ignored: the session decides the company. */
  companyId: z.string().max(20).optional(),
};

/** `GET /dashboard`: `days` (one of the period options) or `date_from`/`date_to`; neither = this month so far. */
export const DashboardQuery = z.object({
  days: z.coerce
    .number()
    .int()
    .refine((days) => (DASHBOARD_PERIODS as readonly number[]).includes(days), 'validation.invalid')
    .optional(),
  date_from: calendarDate().optional(),
  date_to: calendarDate().optional(),
  ...filters,
});
export type DashboardQuery = z.infer<typeof DashboardQuery>;

/** `GET /dashboard/ticketsUsers` and `/dashboard/ticketsDay` (spec part 1 §7). */
export const DashboardChartQuery = z.object({
  initialDate: calendarDate().optional(),
  finalDate: calendarDate().optional(),
  ...filters,
});
export type DashboardChartQuery = z.infer<typeof DashboardChartQuery>;

export interface DashboardCounters {
  supportHappening: number;
  supportPending: number;
  supportFinished: number;
  /** New contacts in the range (the spec's "new contacts"; `leads` in the whaticket clients). */
  leads: number;
  /** Minutes, from accept to close. */
  avgSupportTime: number;
  /** Minutes, from queued to accept. */
  avgWaitTime: number;
  /** Minutes from queued to the first agent message: median and 90th percentile. */
  firstResponseMedian: number | null;
  firstResponseP90: number | null;
  ratings: { 1: number; 2: number; 3: number };
  /** Rated cycles ÷ finished cycles, 0–100. */
  ratingResponseRate: number;
}

export interface DashboardAttendant {
  id: number;
  name: string;
  online: boolean;
  tickets: number;
  /** Average 1–3, null when nobody rated. */
  rating: number | null;
  avgSupportTime: number;
}

export interface DashboardAnswer {
  counters: DashboardCounters;
  attendants: DashboardAttendant[];
  range: { from: string; to: string; timeZone: string };
}

export interface TicketsUsersAnswer {
  data: { nome: string; quantidade: number }[];
  count: number;
}

export interface TicketsDayAnswer {
  /** Per day (`data`, yyyy-MM-dd) or, for a one-day range, per hour (`horario`, HH:00). */
  data: ({ data: string; total: number } | { horario: string; total: number })[];
  count: number;
}
