import type { PresentedHolidayPeriod } from '@atende/shared';
import type { HolidayPeriodRow } from '../../platform/db/schema.js';

/** Dates as `YYYY-MM-DD` (calendar days of the company's zone), as whaticket v6 answers them. */
export function presentHolidayPeriod(period: HolidayPeriodRow): PresentedHolidayPeriod {
  return {
    id: period.id,
    whatsappId: period.whatsappId,
    companyId: period.companyId,
    startDate: period.startDate,
    endDate: period.endDate,
    message: period.message,
    active: period.active,
    repeatIntervalHours: period.repeatIntervalHours,
    createdAt: period.createdAt.toISOString(),
    updatedAt: period.updatedAt.toISOString(),
  };
}
