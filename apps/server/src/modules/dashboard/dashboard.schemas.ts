import { calendarDate, DASHBOARD_PERIODS } from '@atende/shared';
import { z } from 'zod';

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

