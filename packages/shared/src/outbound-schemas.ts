import { z } from 'zod';

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
export interface CampaignSettingEntry {
  key: CampaignSettingKey;
  value: string;
}
