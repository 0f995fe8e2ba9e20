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
export const CampaignProgressSchema = z.object({
  /** Contacts the campaign sends to (every send record). */
  valid: z.number().int(),
  queued: z.number().int(),
  sent: z.number().int(),
  delivered: z.number().int(),
  failed: z.number().int(),
  cancelled: z.number().int(),
});
export type CampaignProgress = z.output<typeof CampaignProgressSchema>;

const idName = z.object({ id: z.number().int(), name: z.string() });

export const PresentedCampaignSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  message1: z.string(),
  message2: z.string(),
  message3: z.string(),
  message4: z.string(),
  message5: z.string(),
  status: z.enum(CAMPAIGN_STATUS),
  scheduledAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  whatsappId: z.number().int().nullable(),
  whatsapp: idName.nullable(),
  contactListId: z.number().int().nullable(),
  contactList: idName.nullable(),
  tagId: z.number().int().nullable(),
  fileListId: z.number().int().nullable(),
  confirmation: z.boolean(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  progress: CampaignProgressSchema,
  /** Failed sends with their reasons (the report's list), newest first, at most 100. */
  failures: z.array(z.object({ number: z.string(), reason: z.string().nullable() })).optional(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedCampaign = z.output<typeof PresentedCampaignSchema>;
