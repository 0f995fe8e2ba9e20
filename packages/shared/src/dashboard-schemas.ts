/**
 * The dashboard's answers (issue 21). Its query schemas live with the server
 * (`modules/dashboard/dashboard.schemas.ts`), so the web app does not carry them.
 */

/** Spec part 1 §9: the dashboard's period options, in days. */
export const DASHBOARD_PERIODS = [3, 7, 15, 30, 60, 90] as const;
/** The longest range the dashboard reads at once. */
export const DASHBOARD_MAX_DAYS = 400;

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
  /** The platform's companies and connected connections: for a super user only (whaticket v6's super cards). */
  totalCompanies?: number;
  totalWhatsappSessions?: number;
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
