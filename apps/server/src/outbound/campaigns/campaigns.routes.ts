import { CampaignBody, CampaignListQuery, CampaignUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import { listSends } from '../outbound.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { readUpload } from '../../modules/quick-messages/quick-messages.routes.js';
import { listCampaigns, presentCampaign, type CampaignDetail } from './campaigns.repo.js';
import {
  attachCampaignMedia,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  registerCampaignSending,
  removeCampaignMedia,
  restartCampaign,
  showCampaign,
  updateCampaign,
} from './campaigns.service.js';

/** Campaign area (spec part 2 §6): admins of a company whose plan allows campaigns; checked before the body is read. */
async function campaignArea(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
  requireFeature(request.ctx, 'useCampaigns');
}

/** Campaigns (spec part 2 §2.7, §4, §7) on the outbound engine. */
export function registerCampaignRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (campaign: CampaignDetail) => presentCampaign(campaign, services.media);
  const gate = { preValidation: campaignArea };

  app.get('/campaigns', { schema: { querystring: CampaignListQuery }, ...gate }, async (request) => {
    const page = await listCampaigns(services.db, request.ctx, request.query);
    return { records: page.records.map(present), hasMore: page.hasMore };
  });
  // The report: the campaign with its progress and its failed sends with their reasons.
  app.get('/campaigns/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    const campaign = await showCampaign(services, request.ctx, request.params.id);
    const failed = await listSends(services.db, request.ctx, 'campaign', campaign.id, { states: ['failed'], limit: 100 });
    return { ...present(campaign), failures: failed.map((send) => ({ number: send.number, reason: send.reason })) };
  });
  app.post('/campaigns', { schema: { body: CampaignBody }, ...gate }, async (request, reply) => reply.status(201).send(present(await createCampaign(services, request.ctx, request.body))));
  app.put('/campaigns/:id', { schema: { params: IdParams, body: CampaignUpdateBody }, ...gate }, async (request) => present(await updateCampaign(services, request.ctx, request.params.id, request.body)));
  app.delete('/campaigns/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteCampaign(services, request.ctx, request.params.id);
    return { message: 'Campaign deleted' };
  });
  app.post('/campaigns/:id/cancel', { schema: { params: IdParams }, ...gate }, async (request) => present(await cancelCampaign(services, request.ctx, request.params.id)));
  app.post('/campaigns/:id/restart', { schema: { params: IdParams }, ...gate }, async (request) => present(await restartCampaign(services, request.ctx, request.params.id)));
  app.post('/campaigns/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) =>
    present(await attachCampaignMedia(services, request.ctx, request.params.id, () => readUpload(request))),
  );
  app.delete('/campaigns/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => present(await removeCampaignMedia(services, request.ctx, request.params.id)));
}

/** Realtime `company-{id}-campaign` (create, update, delete) to the company's admins, and the sending hooks. */
export function subscribeCampaignEvents(services: AppServices): void {
  const { events, publisher, media } = services;
  registerCampaignSending(services);
  events.on('campaign.saved', ({ companyId, action, campaign }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'campaign', { action, record: presentCampaign(campaign, media) });
  });
  events.on('campaign.deleted', ({ companyId, campaignId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'campaign', { action: 'delete', id: campaignId });
  });
}
