import type { Platform } from '../../platform/platform.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { presentCampaign } from './campaigns.presenter.js';
import type { CampaignDetail } from './campaigns.repo.js';
import { followCampaignSends, startDueCampaigns, type CampaignsDeps } from './campaigns.service.js';

declare module '../../platform/events/domain-events.js' {
  interface DomainEventMap {
    'campaign.saved': { companyId: number; action: 'create' | 'update'; campaign: CampaignDetail };
    'campaign.deleted': { companyId: number; campaignId: number };
  }
}

/**
 * Realtime `company-{id}-campaign` (create, update, delete) to the company's admins,
 * and the sending hooks: every engine sweep starts the due campaigns, and settled
 * campaign sends update their campaign's report.
 */
export function subscribeCampaignEvents(deps: CampaignsDeps & Pick<Platform, 'publisher'>): void {
  const { events, publisher, media, outbound } = deps;
  outbound.onSweep(() => startDueCampaigns(deps));
  outbound.onSendSettled('campaign', (_tx, settled) => followCampaignSends(deps, settled));
  events.on('campaign.saved', ({ companyId, action, campaign }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'campaign', { action, record: presentCampaign(campaign, media) });
  });
  events.on('campaign.deleted', ({ companyId, campaignId }) => {
    publisher.toRooms(companyId, [rooms.admins(companyId)], 'campaign', { action: 'delete', id: campaignId });
  });
}
