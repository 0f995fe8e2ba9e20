import { HolidayPeriodBody, HolidayPeriodUpdateBody, id } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentHolidayPeriod } from './holiday-periods.presenter.js';
import { createHolidayPeriod, deleteHolidayPeriod, listConnectionHolidayPeriods, updateHolidayPeriod, type HolidayPeriodsDeps } from './holiday-periods.service.js';

const ConnectionParams = z.object({ id: id() });
const PeriodParams = z.object({ id: id(), periodId: id() });

/** whaticket v6's holiday periods of a connection (the days it is closed). */
export function registerHolidayPeriodRoutes(scope: FastifyInstance, deps: HolidayPeriodsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/whatsapp/:id/holiday-periods', { schema: { params: ConnectionParams } }, async (request) => {
    return (await listConnectionHolidayPeriods(deps, request.ctx, request.params.id)).map(presentHolidayPeriod);
  });

  app.post('/whatsapp/:id/holiday-periods', { schema: { params: ConnectionParams, body: HolidayPeriodBody } }, async (request) => {
    return presentHolidayPeriod(await createHolidayPeriod(deps, request.ctx, request.params.id, request.body));
  });

  app.put('/whatsapp/:id/holiday-periods/:periodId', { schema: { params: PeriodParams, body: HolidayPeriodUpdateBody } }, async (request) => {
    return presentHolidayPeriod(await updateHolidayPeriod(deps, request.ctx, request.params.id, request.params.periodId, request.body));
  });

  app.delete('/whatsapp/:id/holiday-periods/:periodId', { schema: { params: PeriodParams } }, async (request) => {
    await deleteHolidayPeriod(deps, request.ctx, request.params.id, request.params.periodId);
    return { message: 'Holiday period deleted' };
  });
}
