import { IdParams, ScheduleBody, ScheduleListQuery, ScheduleUpdateBody } from '@atende/shared';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AppError } from '../../platform/http/app-error.js';
import type { RequestContext } from '../../platform/http/context.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../../modules/quick-messages/quick-messages.routes.js';
import type { UploadedFile } from '../../platform/storage/media-storage.js';
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

/** The image a multipart schedule carried, for after its save. */
const carriedFiles = new WeakMap<FastifyRequest, UploadedFile>();

/**
 * The whaticket v6 client sends a schedule as multipart: its fields as JSON in `scheduleData`
 * and an optional image in `file` (the text "null" when there is none). They become the JSON
 * body the route validates; the image is attached once the schedule is saved.
 */
async function multipartSchedule(request: FastifyRequest): Promise<void> {
  if (!request.isMultipart()) return;
  let data: unknown = {};
  for await (const part of request.parts()) {
    if (part.type === 'file') {
      const content = await part.toBuffer();
      if (part.fieldname === 'file' && !carriedFiles.has(request)) carriedFiles.set(request, { data: content, fileName: part.filename || 'file', mimeType: part.mimetype });
    } else if (part.fieldname === 'scheduleData') {
      try {
        data = JSON.parse(String(part.value));
      } catch {
        throw new AppError('ERR_VALIDATION', undefined, { message: 'scheduleData must be JSON', fields: { scheduleData: ['Invalid'] } });
      }
    }
  }
  request.body = data;
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

  /** A saved schedule with the image its multipart request carried, if any. */
  const withCarriedFile = async (request: FastifyRequest & { ctx: RequestContext }, schedule: ScheduleDetail) => {
    const file = carriedFiles.get(request);
    return file ? attachScheduleMedia(deps, request.ctx, schedule.id, async () => file) : schedule;
  };
  const bodyGate = { preValidation: [schedulesAllowed, multipartSchedule] };

  app.post('/schedules', { schema: { body: ScheduleBody }, ...bodyGate }, async (request, reply) => {
    return reply.status(201).send(present(await withCarriedFile(request, await createSchedule(deps, request.ctx, request.body))));
  });

  app.put('/schedules/:id', { schema: { params: IdParams, body: ScheduleUpdateBody }, ...bodyGate }, async (request) => {
    return present(await withCarriedFile(request, await updateSchedule(deps, request.ctx, request.params.id, request.body)));
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
