import { campaignSettingsBodySchema } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';
import { presentCampaignSettings } from './campaign-settings.presenter.js';
import { showCampaignSettings, updateCampaignSettings, type CampaignSettingsDeps } from './campaign-settings.service.js';

/** Campaign area: admins of a company whose plan allows campaigns (spec part 2 §6). */
async function campaignsAdmin(request: { ctx: RequestContext }): Promise<void> {
  requireAdmin(request.ctx);
  requireFeature(request.ctx, 'useCampaigns');
}

/**
 * Campaign settings (spec part 2 §2.7, §3, §9): `GET /campaign-settings` answers
 * every key (defaults 20/20/60 included); `POST /campaign-settings` `{ settings }`
 * stores the keys it carries. The outbound engine paces every connection from them.
 */
export function registerCampaignSettingRoutes(scope: FastifyInstance, deps: CampaignSettingsDeps): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/campaign-settings', { preValidation: campaignsAdmin }, async (request) => presentCampaignSettings(await showCampaignSettings(deps, request.ctx)));

  app.post('/campaign-settings', { schema: { body: campaignSettingsBodySchema }, preValidation: campaignsAdmin }, async (request) =>
    presentCampaignSettings(await updateCampaignSettings(deps, request.ctx, request.body.settings)),
  );
}
