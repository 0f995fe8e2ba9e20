import { z } from 'zod';
import { PresentedPlanSchema, PresentedScheduleEntrySchema } from './desk-contracts.js';

/**
 * What the platform's admin routes answer (plans, companies, helps, settings): the
 * presenters are typed with these, and the OpenAPI document shows them (route-answers.ts).
 * Their input schemas are in schemas.ts.
 */

/** A plan as `/plans` lists it: the user's company's plan plus its dates. */
export const PresentedPlanRowSchema = PresentedPlanSchema.extend({ createdAt: z.string(), updatedAt: z.string() });
export type PresentedPlanRow = z.output<typeof PresentedPlanRowSchema>;

/** A company (`/companies`). */
export const PresentedCompanySchema = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  phone: z.string(),
  planId: z.number().int(),
  plan: PresentedPlanRowSchema,
  status: z.boolean(),
  /** `YYYY-MM-DD`; "no expiry" is `NO_EXPIRY_DUE_DATE`. */
  dueDate: z.string(),
  recurrence: z.string(),
  schedules: z.array(PresentedScheduleEntrySchema),
  timezone: z.string(),
  campaignsEnabled: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedCompany = z.output<typeof PresentedCompanySchema>;

/** `GET /companies/listPlan/:companyId`: the company and its plan only. */
export const PresentedCompanyPlanSchema = z.object({ id: z.number().int(), name: z.string(), plan: PresentedPlanRowSchema });
export type PresentedCompanyPlan = z.output<typeof PresentedCompanyPlanSchema>;

/** A help video (`/helps`). */
export const PresentedHelpSchema = z.object({
  id: z.number().int(),
  title: z.string(),
  video: z.string(),
  description: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PresentedHelp = z.output<typeof PresentedHelpSchema>;

/** A company setting (`/settings`): a secret's value masked. */
export const PresentedSettingSchema = z.object({ key: z.string(), value: z.string() });
export type PresentedSetting = z.output<typeof PresentedSettingSchema>;
