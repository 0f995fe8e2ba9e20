import { z } from 'zod';
import type { DashboardAnswer, TicketsDayAnswer, TicketsUsersAnswer } from './dashboard-schemas.js';

/**
 * The dashboard's answers as zod schemas, for the OpenAPI document (route-answers.ts).
 * The types stay zod-free in dashboard-schemas.ts (the web reads them without zod); each
 * schema here `satisfies` its type, so a field added to one and not the other fails to
 * compile, and the OpenAPI test checks real answers against the schema (closed objects).
 */
const int = () => z.number().int();

export const DashboardAnswerSchema = z.object({
  counters: z.object({
    supportHappening: int(),
    supportPending: int(),
    supportFinished: int(),
    leads: int(),
    avgSupportTime: z.number(),
    avgWaitTime: z.number(),
    firstResponseMedian: z.number().nullable(),
    firstResponseP90: z.number().nullable(),
    ratings: z.object({ 1: int(), 2: int(), 3: int() }),
    ratingResponseRate: z.number(),
    totalCompanies: int().optional(),
    totalWhatsappSessions: int().optional(),
  }),
  attendants: z.array(
    z.object({ id: int(), name: z.string(), online: z.boolean(), tickets: int(), rating: z.number().nullable(), avgSupportTime: z.number() }),
  ),
  range: z.object({ from: z.string(), to: z.string(), timeZone: z.string() }),
}) satisfies z.ZodType<DashboardAnswer>;

export const TicketsUsersAnswerSchema = z.object({
  data: z.array(z.object({ nome: z.string(), quantidade: int() })),
  count: int(),
}) satisfies z.ZodType<TicketsUsersAnswer>;

export const TicketsDayAnswerSchema = z.object({
  data: z.array(z.union([z.object({ data: z.string(), total: int() }), z.object({ horario: z.string(), total: int() })])),
  count: int(),
}) satisfies z.ZodType<TicketsDayAnswer>;
