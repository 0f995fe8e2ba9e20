import { IdParams, ScheduleBody, ScheduleListQuery, ScheduleUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../../modules/quick-messages/quick-messages.routes.js';
import { presentSchedule, presentSchedulePage } from './schedules.presenter.js';
import type { ScheduleDetail } from './schedules.repo.js';
import {
  attachScheduleMedia,
  createSchedule,
  deleteSchedule,
  listSchedulePage,
  removeScheduleMedia,
  requireSchedules,
  showSchedule,
  updateSchedule,
  type SchedulesDeps,
} from './schedules.service.js';

/** The plan check runs before the body is read: a company without schedules learns nothing of the payload. */
async function schedulesAllowed(request: { ctx: RequestContext }): Promise<void> {
  requireSchedules(request.ctx);
}

/** Schedules (spec part 2 §2.6, §7), behind the plan flag useSchedules; any user of the company. */
export function registerScheduleRoutes(scope: FastifyInstance, deps: SchedulesDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (schedule: ScheduleDetail) => presentSchedule(schedule, deps.media);
  const gate = { preValidation: schedulesAllowed };

  app.get('/schedules', { schema: { querystring: ScheduleListQuery }, ...gate }, async (request) => {
    return presentSchedulePage(await listSchedulePage(deps, request.ctx, request.query), deps.media);
  });

  app.get('/schedules/:id', { schema: { params: IdParams }, ...gate }, async (request) => present(await showSchedule(deps, request.ctx, request.params.id)));

  app.post('/schedules', { schema: { body: ScheduleBody }, ...gate }, async (request, reply) => {
    return reply.status(201).send(present(await createSchedule(deps, request.ctx, request.body)));
  });

  app.put('/schedules/:id', { schema: { params: IdParams, body: ScheduleUpdateBody }, ...gate }, async (request) => {
    return present(await updateSchedule(deps, request.ctx, request.params.id, request.body));
  });

  app.delete('/schedules/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteSchedule(deps, request.ctx, request.params.id);
    return { message: 'Schedule deleted' };
  });

  app.post('/schedules/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    return present(await attachScheduleMedia(deps, request.ctx, request.params.id, () => readUpload(request)));
  });

  app.delete('/schedules/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    return present(await removeScheduleMedia(deps, request.ctx, request.params.id));
  });
}
