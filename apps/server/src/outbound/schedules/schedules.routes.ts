import { IdParams, ScheduleBody, ScheduleListQuery, ScheduleUpdateBody } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { readUpload } from '../../modules/quick-messages/quick-messages.routes.js';
import { listSchedules, presentSchedule, type ScheduleDetail } from './schedules.repo.js';
import {
  attachScheduleMedia,
  createSchedule,
  deleteSchedule,
  registerScheduleSending,
  removeScheduleMedia,
  requireSchedules,
  showSchedule,
  updateSchedule,
} from './schedules.service.js';

/** The plan check runs before the body is read: a company without schedules learns nothing of the payload. */
async function schedulesAllowed(request: { ctx: RequestContext }): Promise<void> {
  requireSchedules(request.ctx);
}

/** Schedules (spec part 2 §2.6, §7), behind the plan flag useSchedules; any user of the company. */
export function registerScheduleRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (schedule: ScheduleDetail) => presentSchedule(schedule, services.media);
  const gate = { preValidation: schedulesAllowed };

  app.get('/schedules', { schema: { querystring: ScheduleListQuery }, ...gate }, async (request) => {
    const page = await listSchedules(services.db, request.ctx, request.query);
    return { schedules: page.rows.map(present), hasMore: page.hasMore, count: page.rows.length };
  });

  app.get('/schedules/:id', { schema: { params: IdParams }, ...gate }, async (request) => present(await showSchedule(services, request.ctx, request.params.id)));

  app.post('/schedules', { schema: { body: ScheduleBody }, ...gate }, async (request, reply) => {
    return reply.status(201).send(present(await createSchedule(services, request.ctx, request.body)));
  });

  app.put('/schedules/:id', { schema: { params: IdParams, body: ScheduleUpdateBody }, ...gate }, async (request) => {
    return present(await updateSchedule(services, request.ctx, request.params.id, request.body));
  });

  app.delete('/schedules/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteSchedule(services, request.ctx, request.params.id);
    return { message: 'Schedule deleted' };
  });

  app.post('/schedules/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    return present(await attachScheduleMedia(services, request.ctx, request.params.id, () => readUpload(request)));
  });

  app.delete('/schedules/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => {
    return present(await removeScheduleMedia(services, request.ctx, request.params.id));
  });
}

/** Realtime `company-{id}-schedule` (create, update, delete) to the company, and the sending hooks. */
export function subscribeScheduleEvents(services: AppServices): void {
  const { events, publisher, media } = services;
  registerScheduleSending(services);
  events.on('schedule.saved', ({ companyId, action, schedule }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'schedule', { action, schedule: presentSchedule(schedule, media) });
  });
  events.on('schedule.deleted', ({ companyId, scheduleId }) => {
    publisher.toRooms(companyId, [rooms.company(companyId)], 'schedule', { action: 'delete', scheduleId });
  });
}
