import { z } from 'zod';
import type { PresentedSlaBreach, SlaReport } from './sla-schemas.js';

/**
 * The response-time targets' answers as zod schemas, for the OpenAPI document
 * (route-answers.ts). The types stay zod-free in sla-schemas.ts (the web reads them
 * without zod); each schema here `satisfies` its type, and the OpenAPI test checks
 * real answers against the schema (closed objects).
 */
const int = () => z.number().int();

export const PresentedSlaBreachSchema = z.object({
  id: int(),
  ticketId: int(),
  ticketUuid: z.string(),
  contactName: z.string(),
  kind: z.enum(['first_response', 'resolution']),
  dueAt: z.string(),
  breachedAt: z.string(),
  userId: int().nullable(),
  queueId: int().nullable(),
  queueName: z.string().nullable(),
}) satisfies z.ZodType<PresentedSlaBreach>;

/** `GET /sla/breaches`: the caller's missed targets (the bell). */
export const SlaBreachListSchema = z.object({ breaches: z.array(PresentedSlaBreachSchema) });

const tally = {
  firstResponseMet: int(),
  firstResponseMissed: int(),
  resolutionMet: int(),
  resolutionMissed: int(),
  /** Met ÷ (met + missed), 0–100; null when none ended. */
  rate: z.number().nullable(),
};

export const SlaReportSchema = z.object({
  from: z.string(),
  to: z.string(),
  total: z.object(tally),
  queues: z.array(z.object({ ...tally, queueId: int(), name: z.string(), color: z.string() })),
  agents: z.array(z.object({ ...tally, userId: int().nullable(), name: z.string() })),
  days: z.array(z.object({ ...tally, day: z.string() })),
}) satisfies z.ZodType<SlaReport>;
