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

/**
 * `GET /health`: 200 with `status` `ok`; 503 with `storage_full` (`storage.reason` says why)
 * or `unavailable` (the database does not answer). `media`: whether the media storage
 * answered its last call (it does not change the status code).
 */
export const HealthAnswerSchema = z.object({
  status: z.enum(['ok', 'storage_full', 'unavailable']),
  database: z.enum(['pglite', 'postgres']),
  storage: z.object({
    status: z.enum(['ok', 'full', 'database_full', 'unknown']),
    /** Free space in DATA_DIR, in MB (absent when it could not be read). */
    freeMb: z.number().optional(),
    minFreeMb: z.number().optional(),
    reason: z.string().optional(),
  }),
  media: z.object({ kind: z.enum(['local', 's3']), status: z.enum(['ok', 'unavailable']), reason: z.string().optional() }),
});
export type HealthAnswer = z.infer<typeof HealthAnswerSchema>;

/** `GET /openapi.json`: this document (OpenAPI 3.1), described by its top level only. */
export const OpenApiDocumentSchema = z.looseObject({
  openapi: z.string(),
  info: z.looseObject({ title: z.string(), version: z.string() }),
  paths: z.record(z.string(), z.record(z.string(), z.unknown())),
  components: z.looseObject({}),
});
