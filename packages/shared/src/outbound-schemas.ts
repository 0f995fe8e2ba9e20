import { z } from 'zod';
import { noneAsAbsent, noneId } from './conventions.js';
import { id, isDateTime, requiredText } from './validation.js';

// ---- Outbound (issue 20): campaign settings and schedules ----

/** Spec part 2 §9: the random interval's options, and those of the two other intervals. */
export const MESSAGE_INTERVAL_OPTIONS = [0, 5, 10, 15, 20] as const;
export const LONGER_INTERVAL_OPTIONS = [0, 1, 5, 10, 15, 20, 30, 40, 60, 80, 100, 120] as const;
export const CAMPAIGN_SETTINGS_DEFAULTS = { messageInterval: 20, longerIntervalAfter: 20, greaterInterval: 60 } as const;

const interval = (options: readonly number[]) =>
  z.coerce
    .number()
    .int()
    .refine((value) => options.includes(value), { message: `One of ${options.join(', ')}` });

export const campaignVariableSchema = z.object({
  key: z.string().trim().min(1).max(50),
  value: z.string().max(1000),
});

/** Messages per second one connection sends at most, per provider kind (0 = no cap). */
export const sendCapsSchema = z.object({
  baileys: z.coerce.number().min(0).max(100),
  'cloud-api': z.coerce.number().min(0).max(1000),
  sandbox: z.coerce.number().min(0).max(10000),
});

/**
 * `POST /campaign-settings` ({ settings }): each key present is stored; the
 * others keep their value. No defaults (an update sends only what it changes).
 */
export const campaignSettingsBodySchema = z.object({
  settings: z.object({
    messageInterval: interval(MESSAGE_INTERVAL_OPTIONS).optional(),
    longerIntervalAfter: interval(LONGER_INTERVAL_OPTIONS).optional(),
    greaterInterval: interval(LONGER_INTERVAL_OPTIONS).optional(),
    variables: z
      .array(campaignVariableSchema)
      .max(100)
      .refine((list) => new Set(list.map((v) => v.key)).size === list.length, { message: 'Duplicated key' })
      .optional(),
    sendCaps: sendCapsSchema.optional(),
  }),
});
export type CampaignSettingsBody = z.infer<typeof campaignSettingsBodySchema>;

export interface CampaignSettings {
  messageInterval: number;
  longerIntervalAfter: number;
  greaterInterval: number;
  variables: { key: string; value: string }[];
  sendCaps: z.infer<typeof sendCapsSchema>;
}
export const CAMPAIGN_SETTING_KEYS = ['messageInterval', 'longerIntervalAfter', 'greaterInterval', 'variables', 'sendCaps'] as const;
export type CampaignSettingKey = (typeof CAMPAIGN_SETTING_KEYS)[number];
/** `GET /campaign-settings`: the spec's key/JSON-value pairs. */
export const CampaignSettingEntrySchema = z.object({ key: z.enum(CAMPAIGN_SETTING_KEYS), value: z.string().describe('The setting as JSON text') });
export type CampaignSettingEntry = z.output<typeof CampaignSettingEntrySchema>;

/** Spec part 2 §5: schedule body at least 5 characters; contact and sendAt required. */
export const SCHEDULE_BODY_MIN = 5;
export const SCHEDULE_STATUS = ['PENDENTE', 'AGENDADA', 'ENVIADA', 'ERRO'] as const;
export type ScheduleStatus = (typeof SCHEDULE_STATUS)[number];
/** Attachments a schedule takes (spec part 2 §2.6). */
export const SCHEDULE_MEDIA_EXTENSIONS = ['.png', '.jpg', '.jpeg'] as const;
export const SCHEDULE_MEDIA_TYPES = ['image/png', 'image/jpeg'] as const;

/**
 * A schedule's send time: an ISO date-time; without an offset it is read in the
 * company's time zone.
 */
export const sendAt = () =>
  z
    .string({ error: 'validation.required' })
    .trim()
    .min(1, 'validation.required')
    .refine(isDateTime, 'validation.invalidDate');

export const ScheduleBody = z.object({
  body: requiredText(SCHEDULE_BODY_MIN, 10_000),
  contactId: id(),
  sendAt: sendAt(),
});
export type ScheduleBody = z.infer<typeof ScheduleBody>;

export const ScheduleUpdateBody = z.object({
  body: requiredText(SCHEDULE_BODY_MIN, 10_000).optional(),
  // A schedule always has a contact: "none" (false, '', null) leaves it as it is.
  contactId: noneAsAbsent(id().optional()),
  sendAt: sendAt().optional(),
});
export type ScheduleUpdateBody = z.infer<typeof ScheduleUpdateBody>;

export const ScheduleListQuery = z.object({
  searchParam: z.string().max(200, 'validation.tooLong').optional().default(''),
  pageNumber: z.coerce.number().int().min(1).max(100_000).optional().default(1),
  contactId: noneId().optional(),
});
export type ScheduleListQuery = z.infer<typeof ScheduleListQuery>;

export const PresentedScheduleSchema = z.object({
  id: z.number().int(),
  body: z.string(),
  contactId: z.number().int(),
  contact: z.object({ id: z.number().int(), name: z.string(), number: z.string() }),
  sendAt: z.string(),
  sentAt: z.string().nullable(),
  status: z.enum(SCHEDULE_STATUS),
  /** Why it is ERRO (an error code). */
  reason: z.string().nullable(),
  whatsappId: z.number().int().nullable(),
  ticketId: z.number().int().nullable(),
  userId: z.number().int().nullable(),
  mediaPath: z.string().nullable(),
  mediaName: z.string().nullable(),
  mediaUrl: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedSchedule = z.output<typeof PresentedScheduleSchema>;
