import { z } from 'zod';
import { flag, noneAsAbsent, noneId } from './conventions.js';
import { sendAt } from './outbound-schemas.js';
import { requiredText } from './validation.js';

/** Campaign states (spec part 2 §4). */
export const CAMPAIGN_STATUS = ['INATIVA', 'PROGRAMADA', 'EM_ANDAMENTO', 'CANCELADA', 'FINALIZADA'] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUS)[number];
export const CAMPAIGN_MESSAGE_FIELDS = ['message1', 'message2', 'message3', 'message4', 'message5'] as const;

/** A message variant; null (how the whaticket v6 client sends an empty one) is an empty message. */
const message = () => z.preprocess((value: string | undefined) => ((value as unknown) === null ? '' : value), z.string().max(10_000, 'validation.tooLong').optional());
/** A tag to send to, or none; the whaticket v6 client's select says none as "Nenhuma". */
const noTagList = () => z.preprocess((value: z.input<ReturnType<typeof noneId>>) => (value === 'Nenhuma' ? null : value), noneId());

/** A time to start; '' or null means "not scheduled" (the campaign stays INATIVA). */
const startAt = () => z.preprocess((value) => (value === '' || value === null || value === false ? null : value), sendAt().nullable());

const fields = {
  message1: message(),
  message2: message(),
  message3: message(),
  message4: message(),
  message5: message(),
  whatsappId: noneId().optional(),
  contactListId: noneId().optional(),
  /** The spec's form names it tagListId and sends it as tagId: both accepted ("Nenhuma", the whaticket v6 client's "none", too). */
  tagId: noTagList().optional(),
  tagListId: noTagList().optional(),
  scheduledAt: startAt().optional(),
  confirmation: flag().optional(),
  /** Its files are sent after the text. */
  fileListId: noneId().optional(),
};

/** Spec part 2 §5: name required, 2 to 50. */
export const CampaignBody = z.object({ name: requiredText(2, 50), ...fields });
export type CampaignBody = z.infer<typeof CampaignBody>;

export const CampaignUpdateBody = z.object({ name: noneAsAbsent(requiredText(2, 50).optional()), ...fields });
export type CampaignUpdateBody = z.infer<typeof CampaignUpdateBody>;

export const CampaignListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
});
export type CampaignListQuery = z.infer<typeof CampaignListQuery>;

/** A campaign's sends so far (from the outbound engine): what the report shows. */
export interface CampaignProgress {
  /** Contacts the campaign sends to (every send record). */
  valid: number;
  queued: number;
  sent: number;
  delivered: number;
  failed: number;
  cancelled: number;
}

export interface PresentedCampaign {
  id: number;
  name: string;
  message1: string;
  message2: string;
  message3: string;
  message4: string;
  message5: string;
  status: CampaignStatus;
  scheduledAt: string | null;
  completedAt: string | null;
  whatsappId: number | null;
  whatsapp: { id: number; name: string } | null;
  contactListId: number | null;
  contactList: { id: number; name: string } | null;
  tagId: number | null;
  fileListId: number | null;
  confirmation: boolean;
  mediaPath: string | null;
  mediaName: string | null;
  mediaUrl: string | null;
  progress: CampaignProgress;
  /** Failed sends with their reasons (the report's list), newest first, at most 100. */
  failures?: { number: string; reason: string | null }[];
  createdAt: string;
  updatedAt: string;
}
