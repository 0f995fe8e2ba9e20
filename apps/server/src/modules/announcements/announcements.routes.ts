import { AnnouncementBody, AnnouncementListQuery, AnnouncementUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AnnouncementRow } from '../../platform/db/schema.js';
import { superOnly } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../quick-messages/quick-messages.routes.js';
import { presentAnnouncement } from './announcements.presenter.js';
import {
  announcementPage,
  attachAnnouncementMedia,
  createAnnouncement,
  deleteAnnouncement,
  markAnnouncementsRead,
  removeAnnouncementMedia,
  showAnnouncement,
  unreadAnnouncements,
  updateAnnouncement,
  type AnnouncementsDeps,
} from './announcements.service.js';

/** Announcements (spec part 2 §2.9, §7; part 1 §7): every user reads the active ones, super users manage them. */
export function registerAnnouncementRoutes(scope: FastifyInstance, deps: AnnouncementsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (announcement: AnnouncementRow) => presentAnnouncement(announcement, deps.media);
  const superGate = { preValidation: superOnly };

  app.get('/announcements', { schema: { querystring: AnnouncementListQuery } }, async (request) => {
    const page = await announcementPage(deps, request.ctx, request.query);
    return { records: page.records.map(present), hasMore: page.hasMore, count: page.count };
  });
  // Ours (not in the spec): the top bar's unread count per user, and "seen" when its popover opens.
  app.get('/announcements/unread', async (request) => ({ count: await unreadAnnouncements(deps, request.ctx) }));
  app.post('/announcements/read', async (request) => {
    await markAnnouncementsRead(deps, request.ctx);
    return { count: 0 };
  });
  app.get('/announcements/:id', { schema: { params: IdParams } }, async (request) => present(await showAnnouncement(deps, request.ctx, request.params.id)));

  app.post('/announcements', { schema: { body: AnnouncementBody }, ...superGate }, async (request, reply) => reply.status(201).send(present(await createAnnouncement(deps, request.body))));
  app.put('/announcements/:id', { schema: { params: IdParams, body: AnnouncementUpdateBody }, ...superGate }, async (request) =>
    present(await updateAnnouncement(deps, request.ctx, request.params.id, request.body)),
  );
  app.delete('/announcements/:id', { schema: { params: IdParams }, ...superGate }, async (request) => {
    await deleteAnnouncement(deps, request.params.id);
    return { message: 'Announcement deleted' };
  });
  app.post('/announcements/:id/media-upload', { schema: { params: IdParams }, ...superGate }, async (request) =>
    present(await attachAnnouncementMedia(deps, request.ctx, request.params.id, () => readUpload(request))),
  );
  app.delete('/announcements/:id/media-upload', { schema: { params: IdParams }, ...superGate }, async (request) =>
    present(await removeAnnouncementMedia(deps, request.ctx, request.params.id)),
  );
}
