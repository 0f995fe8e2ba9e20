import type { HolidayPeriodBody, HolidayPeriodUpdateBody } from '@atende/shared';
import type { HolidayPeriodRow } from '../../platform/db/schema.js';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import { authorize } from '../../platform/http/guards.js';
import type { Platform } from '../../platform/platform.js';
import { findConnection } from './connections.repo.js';
import {
  deleteHolidayPeriodRow,
  findHolidayPeriod,
  insertHolidayPeriod,
  listHolidayPeriods,
  updateHolidayPeriodRow,
  type HolidayPeriodValues,
} from './holiday-periods.repo.js';

/**
 * A connection's holiday periods (whaticket v6's `/whatsapp/:id/holiday-periods`): the days
 * it is closed (automation/inbound-automation.ts sends the period's message instead of the
 * bot). They are part of the connection's settings: who edits connections manages them.
 */
export type HolidayPeriodsDeps = Pick<Platform, 'db'>;

async function requireConnection(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number): Promise<void> {
  authorize(ctx, 'connections-page:editOrDeleteConnection');
  if (!(await findConnection(deps.db, ctx, whatsappId))) throw new AppError('ERR_NO_WAPP_FOUND');
}

async function requirePeriod(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number, id: number): Promise<HolidayPeriodRow> {
  await requireConnection(deps, ctx, whatsappId);
  const period = await findHolidayPeriod(deps.db, ctx, whatsappId, id);
  if (!period) throw new AppError('ERR_NOT_FOUND');
  return period;
}

export async function listConnectionHolidayPeriods(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number): Promise<HolidayPeriodRow[]> {
  await requireConnection(deps, ctx, whatsappId);
  return listHolidayPeriods(deps.db, ctx, whatsappId);
}

export async function createHolidayPeriod(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number, body: HolidayPeriodBody): Promise<HolidayPeriodRow> {
  await requireConnection(deps, ctx, whatsappId);
  return insertHolidayPeriod(deps.db, ctx, whatsappId, {
    startDate: body.startDate,
    endDate: body.endDate,
    message: body.message,
    active: body.active,
    repeatIntervalHours: body.repeatIntervalHours,
  });
}

export async function updateHolidayPeriod(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number, id: number, body: HolidayPeriodUpdateBody): Promise<HolidayPeriodRow> {
  const current = await requirePeriod(deps, ctx, whatsappId, id);
  const values: Partial<HolidayPeriodValues> = {};
  if (body.startDate !== undefined) values.startDate = body.startDate;
  if (body.endDate !== undefined) values.endDate = body.endDate;
  if (body.message !== undefined) values.message = body.message;
  if (body.active !== undefined) values.active = body.active;
  if (body.repeatIntervalHours !== undefined) values.repeatIntervalHours = body.repeatIntervalHours;
  // One date changed alone must still leave the end on or after the start.
  if ((values.endDate ?? current.endDate) < (values.startDate ?? current.startDate)) {
    throw new AppError('ERR_VALIDATION', undefined, { message: 'The end comes before the start', fields: { endDate: ['The end comes before the start'] } });
  }
  const updated = await updateHolidayPeriodRow(deps.db, ctx, id, values);
  if (!updated) throw new AppError('ERR_NOT_FOUND');
  return updated;
}

export async function deleteHolidayPeriod(deps: HolidayPeriodsDeps, ctx: RequestContext, whatsappId: number, id: number): Promise<void> {
  await requirePeriod(deps, ctx, whatsappId, id);
  await deleteHolidayPeriodRow(deps.db, ctx, id);
}
