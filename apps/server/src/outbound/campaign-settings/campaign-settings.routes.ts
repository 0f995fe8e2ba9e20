import { CAMPAIGN_SETTING_KEYS, campaignSettingsBodySchema, type CampaignSettingEntry, type CampaignSettings } from '@atende/shared';
import type { FastifyInstance } from 'fastify';
import type { AppServices } from '../../app.js';
import { loadCampaignSettings, saveCampaignSettings } from './campaign-settings.repo.js';
import type { RequestContext } from '../../platform/http/context.js';
import { requireAdmin, requireFeature } from '../../platform/http/guards.js';
import type { ZodTypeProvider } from '../../platform/http/zod-provider.js';

/** The spec's shape: one entry per key, its value as JSON text. */
function entries(settings: CampaignSettings): CampaignSettingEntry[] {
  return CAMPAIGN_SETTING_KEYS.map((key) => ({ key, value: JSON.stringify(settings[key]) }));
}

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
export function registerCampaignSettingRoutes(scope: FastifyInstance, services: AppServices): void {
  const app = scope.withTypeProvider<ZodTypeProvider>();

  app.get('/campaign-settings', { preValidation: campaignsAdmin }, async (request) => entries(await loadCampaignSettings(services.db, request.ctx)));

  app.post('/campaign-settings', { schema: { body: campaignSettingsBodySchema }, preValidation: campaignsAdmin }, async (request) => {
    await saveCampaignSettings(services.db, request.ctx, request.body.settings);
    return entries(await loadCampaignSettings(services.db, request.ctx));
  });
}
