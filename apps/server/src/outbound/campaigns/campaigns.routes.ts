import { CampaignBody, CampaignListQuery, CampaignUpdateBody, IdParams } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { readUpload } from '../../modules/quick-messages/quick-messages.routes.js';
import { presentCampaign, presentCampaignPage, presentCampaignReport } from './campaigns.presenter.js';
import type { CampaignDetail } from './campaigns.repo.js';
import {
  attachCampaignMedia,
  cancelCampaign,
  createCampaign,
  deleteCampaign,
  listCampaignPage,
  removeCampaignMedia,
  restartCampaign,
  showCampaignReport,
  updateCampaign,
  type CampaignsDeps,
} from './campaigns.service.js';

/** Campaign area (spec part 2 §6): admins of a company whose plan allows campaigns; checked before the body is read. */
async function campaignArea(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
  requireFeature(request.ctx, 'useCampaigns');
}

/** Campaigns (spec part 2 §2.7, §4, §7) on the outbound engine. */
export function registerCampaignRoutes(scope: FastifyInstance, deps: CampaignsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();
  const present = (campaign: CampaignDetail) => presentCampaign(campaign, deps.media);
  const gate = { preValidation: campaignArea };

  app.get('/campaigns', { schema: { querystring: CampaignListQuery }, ...gate }, async (request) =>
    presentCampaignPage(await listCampaignPage(deps, request.ctx, request.query), deps.media),
  );
  // The report: the campaign with its progress and its failed sends with their reasons.
  app.get('/campaigns/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    const { campaign, failed } = await showCampaignReport(deps, request.ctx, request.params.id);
    return presentCampaignReport(campaign, failed, deps.media);
  });
  app.post('/campaigns', { schema: { body: CampaignBody }, ...gate }, async (request, reply) => reply.status(201).send(present(await createCampaign(deps, request.ctx, request.body))));
  app.put('/campaigns/:id', { schema: { params: IdParams, body: CampaignUpdateBody }, ...gate }, async (request) => present(await updateCampaign(deps, request.ctx, request.params.id, request.body)));
  app.delete('/campaigns/:id', { schema: { params: IdParams }, ...gate }, async (request) => {
    await deleteCampaign(deps, request.ctx, request.params.id);
    return { message: 'Campaign deleted' };
  });
  app.post('/campaigns/:id/cancel', { schema: { params: IdParams }, ...gate }, async (request) => present(await cancelCampaign(deps, request.ctx, request.params.id)));
  app.post('/campaigns/:id/restart', { schema: { params: IdParams }, ...gate }, async (request) => present(await restartCampaign(deps, request.ctx, request.params.id)));
  app.post('/campaigns/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) =>
    present(await attachCampaignMedia(deps, request.ctx, request.params.id, () => readUpload(request))),
  );
  app.delete('/campaigns/:id/media-upload', { schema: { params: IdParams }, ...gate }, async (request) => present(await removeCampaignMedia(deps, request.ctx, request.params.id)));
}
