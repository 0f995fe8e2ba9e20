import { calendarDate } from '@atende/shared';
import { z } from 'zod';

/** `GET /reports/*` of whaticket v6's dashboard charts: the days (the company's); `companyId` is accepted and ignored. */
export const ReportRangeQuery = z.object({
  initialDate: calendarDate().optional(),
  finalDate: calendarDate().optional(),
  companyId: z.string().max(20).optional(),
});
export type ReportRangeQuery = z.infer<typeof ReportRangeQuery>;

/** v6 sends its id filters as JSON arrays (`"[1,2]"`); a comma list or repeated keys are read too. */
const idList = z
  .union([z.string().max(2000), z.array(z.string().max(20)).max(200)])
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : value.replace(/^\[|\]$/g, '').split(',')).map((part) => part.trim().replace(/^"|"$/g, '')).filter(Boolean);
    const ids = parts.map(Number);
    if (ids.some((id) => !Number.isInteger(id) || id < 0 || id > 2_147_483_647)) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalidValue' });
      return z.NEVER;
    }
    return ids.length ? ids : undefined;
  })
  .optional();

const STATUSES = ['open', 'pending', 'closed'] as const;
const statusList = z
  .union([z.string().max(200), z.array(z.string().max(20)).max(10)])
  .transform((value, ctx) => {
    const parts = (Array.isArray(value) ? value : value.replace(/^\[|\]$/g, '').split(',')).map((part) => part.trim().replace(/^"|"$/g, '')).filter(Boolean);
    if (parts.some((part) => !(STATUSES as readonly string[]).includes(part))) {
      ctx.addIssue({ code: 'custom', message: 'validation.invalidValue' });
      return z.NEVER;
    }
    return parts.length ? (parts as (typeof STATUSES)[number][]) : undefined;
  })
  .optional();

const optionalId = z.preprocess((value) => (value === '' || value === null ? undefined : value), z.coerce.number().int().min(1).max(2_147_483_647).optional());

/** The most rows one page of the report holds (v6's spreadsheet export asks for 9999999). */
export const TICKET_REPORT_MAX_PAGE = 5000;

/** `GET /ticket/reports` (v6's Relatórios page): filters, then the page. */
export const TicketReportQuery = z.object({
  searchParam: z.string().max(200).optional(),
  ticketId: optionalId,
  contactId: optionalId,
  /** v6's export sends the whole contact (`currentContact[id]=..`): its id is read. */
  'currentContact[id]': optionalId,
  whatsappId: idList,
  users: idList,
  queueIds: idList,
  status: statusList,
  dateFrom: calendarDate().optional(),
  dateTo: calendarDate().optional(),
  page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  pageNumber: z.coerce.number().int().min(1).max(1_000_000).optional(),
  pageSize: z.coerce.number().int().min(1).optional(),
});
export type TicketReportQuery = z.infer<typeof TicketReportQuery>;
