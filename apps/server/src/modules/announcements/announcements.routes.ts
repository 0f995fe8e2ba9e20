import { AnnouncementBody, AnnouncementListQuery, AnnouncementUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { presentAnnouncement } from './announcements.presenter.js';
import { countUnreadAnnouncements, listAnnouncementPage, markAnnouncementsSeen } from './announcements.repo.js';
import {
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  removeAnnouncementMedia,
  showAnnouncement,
  updateAnnouncement,
} from './announcements.service.js';

/** Announcements (spec part 2 §2.9, §7; part 1 §7): every user reads the active ones, super users manage them. */
export function registerAnnouncementRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (announcement: AnnouncementRow) => presentAnnouncement(announcement, services.media);
  const superGate = { preValidation: superOnly };

  app.get('/announcements', { schema: { querystring: AnnouncementListQuery } }, async (request) => {
    const { searchParam, pageNumber, active } = request.query;
    const page = await listAnnouncementPage(services.db, { searchParam, pageNumber, activeOnly: active || !request.ctx.user.super });
    return { records: page.records.map(present), hasMore: page.hasMore, count: page.count };
  });
  // Ours (not in the spec): the top bar's unread count per user, and "seen" when its popover opens.
  app.get('/announcements/unread', async (request) => ({ count: await countUnreadAnnouncements(services.db, request.ctx, request.ctx.user.id) }));
  app.post('/announcements/read', async (request) => {
    await markAnnouncementsSeen(services.db, request.ctx, request.ctx.user.id);
    return { count: 0 };
  });
  app.get('/announcements/:id', { schema: { params: IdParams } }, async (request) => present(await showAnnouncement(services, request.ctx, request.params.id)));

  app.post('/announcements', { schema: { body: AnnouncementBody }, ...superGate }, async (request, reply) => reply.status(201).send(present(await createAnnouncement(services, request.body))));
  app.put('/announcements/:id', { schema: { params: IdParams, body: AnnouncementUpdateBody }, ...superGate }, async (request) =>
    present(await updateAnnouncement(services, request.ctx, request.params.id, request.body)),
  );
  app.delete('/announcements/:id', { schema: { params: IdParams }, ...superGate }, async (request) => {
    await deleteAnnouncement(services, request.params.id);
    return { message: 'Announcement deleted' };
  });
  app.post('/announcements/:id/media-upload', { schema: { params: IdParams }, ...superGate }, async (request) =>
    present(await attachAnnouncementMedia(services, request.ctx, request.params.id, () => readUpload(request))),
  );
  app.delete('/announcements/:id/media-upload', { schema: { params: IdParams }, ...superGate }, async (request) =>
    present(await removeAnnouncementMedia(services, request.ctx, request.params.id)),
  );
}
