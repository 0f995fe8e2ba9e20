import type { PresentedCampaign } from '@atende/shared';
import type { OutboundSendRow } from '../../platform/db/schema.js';
import type { MediaStorage } from '../../platform/storage/media-storage.js';
import type { CampaignDetail } from './campaigns.repo.js';

type Signer = Pick<MediaStorage, 'signedUrl'>;

export function presentCampaign(row: CampaignDetail, media: Signer): PresentedCampaign {
  return {
    id: row.id,
    name: row.name,
    message1: row.message1,
    message2: row.message2,
    message3: row.message3,
    message4: row.message4,
    message5: row.message5,
    status: row.status,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    completedAt: row.completedAt?.toISOString() ?? null,
    whatsappId: row.whatsappId,
    whatsapp: row.whatsapp,
    contactListId: row.contactListId,
    contactList: row.contactList,
    tagId: row.tagId,
    fileListId: row.fileListId,
    confirmation: row.confirmation,
    mediaPath: row.mediaPath ? row.mediaName : null,
    mediaName: row.mediaPath ? row.mediaName : null,
    mediaUrl: row.mediaPath ? media.signedUrl(row.mediaPath) : null,
    progress: row.progress,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** `GET /campaigns`: a page of campaigns and whether more follow. */
export function presentCampaignPage(page: { records: CampaignDetail[]; hasMore: boolean }, media: Signer) {
  return { records: page.records.map((row) => presentCampaign(row, media)), hasMore: page.hasMore };
}

/** The report (`GET /campaigns/{id}`): the campaign with its progress and its failed sends with their reasons. */
export function presentCampaignReport(campaign: CampaignDetail, failed: Pick<OutboundSendRow, 'number' | 'reason'>[], media: Signer) {
  return { ...presentCampaign(campaign, media), failures: failed.map((send) => ({ number: send.number, reason: send.reason })) };
}
