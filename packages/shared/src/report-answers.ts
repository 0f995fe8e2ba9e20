import { z } from 'zod';

/**
 * whaticket v6's reports (`GET /reports/*`, `GET /ticket/reports`, issue 32) as zod
 * schemas, for the OpenAPI document (route-answers.ts). They keep v6's field names.
 */
const int = () => z.number().int();

/** `GET /reports/appointmentsAtendent`: conversations per agent and per queue in the range, fewest first. */
export const AppointmentsByAttendantSchema = z.object({
  appointmentsByAttendents: z.array(z.object({ user_name: z.string(), total_tickets: int() })),
  ticketsByQueues: z.array(z.object({ name: z.string(), total_tickets: int() })),
});
export type AppointmentsByAttendant = z.infer<typeof AppointmentsByAttendantSchema>;

/** `GET /reports/departamentRatings`: the average rating (1–3, two decimals as text) per queue with ratings. */
export const DepartmentRatingsSchema = z.array(z.object({ name: z.string(), total_rate: z.string() }));
export type DepartmentRatings = z.infer<typeof DepartmentRatingsSchema>;

/** `GET /reports/rushHour`: conversations started per hour of the day (the company's clock), hours with some only. */
export const RushHourSchema = z.array(z.object({ message_hour: int(), message_count: int() }));
export type RushHour = z.infer<typeof RushHourSchema>;

/** One row of v6's tickets report: dates as `DD/MM/YYYY HH:MM` on the company's clock, v6's status words. */
export const TicketReportRowSchema = z.object({
  id: int(),
  whatsappName: z.string().nullable(),
  contactName: z.string(),
  userName: z.string().nullable(),
  queueName: z.string().nullable(),
  queueColor: z.string().nullable(),
  lastMessage: z.string().nullable(),
  uuid: z.string(),
  status: z.string(),
  createdAt: z.string(),
  closedAt: z.string().nullable(),
});
export type TicketReportRow = z.infer<typeof TicketReportRowSchema>;

/** `GET /ticket/reports`: a page of the tickets the caller may see, newest first, and how many match. */
export const TicketReportPageSchema = z.object({
  tickets: z.array(TicketReportRowSchema),
  totalTickets: z.object({ total: int() }),
});
