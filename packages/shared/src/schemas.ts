import { z } from 'zod';
import { ALL_TICKET_VALUES, LANGUAGES, PROFILES, RECURRENCES, WEEKDAYS } from './constants.js';
import { PLAN_FEATURES } from './plans.js';
import { maxOpenTicketsField } from './auto-assign-schemas.js';
import { flag, noneAsAbsent, noneId } from './conventions.js';
import { email, id, isCalendarDate, isDateTime, requiredText, time, timeZone } from './validation.js';
import { twoFactorCode } from './two-factor-schemas.js';

export const LoginBody = z.object({
  email: email(),
  password: z.string({ error: 'validation.required' }).min(1, 'validation.required').max(128, 'validation.tooLong'),
  /**
   * An admin of a company past its due date signs in to pay: the session reaches only
   * the billing routes (without it the login is refused, as the spec says).
   */
  billing: flag().optional(),
  /** The second factor (two-factor-schemas.ts): the authenticator's 6 digits or a recovery code. */
  code: twoFactorCode().optional(),
});
export type LoginBody = z.infer<typeof LoginBody>;

const password = () => z.string().min(5, 'validation.tooShort').max(50, 'validation.tooLong');

/** The super flag on a user form; whaticket v6's sends `null` for a user loaded without it: not given (`false` still demotes). */
const superFlag = () => z.preprocess((value) => (value === null ? undefined : value), flag().optional());

const userFields = {
  name: requiredText(2, 50),
  email: email(),
  profile: z.enum(PROFILES, { error: 'validation.invalidValue' }),
  allTicket: z.enum(ALL_TICKET_VALUES, { error: 'validation.invalidValue' }),
  whatsappId: noneId(),
  queueIds: z.array(id()).max(500),
  super: flag(),
  language: z.enum(LANGUAGES, { error: 'validation.invalidValue' }),
  /** Auto-assignment's capacity (issue 35); null: the queue's default. */
  maxOpenTickets: maxOpenTicketsField(),
};

/** User form (spec part 1 §5): name 2–50, email valid, password 5–50 (optional on edit). */
export const UserCreateBody = z.object({
  ...userFields,
  // Required on add: an empty password says so, not "too short".
  password: z.string({ error: 'validation.required' }).min(1, 'validation.required').pipe(password()),
  profile: userFields.profile.default('user'),
  allTicket: userFields.allTicket.default('desabled'),
  whatsappId: userFields.whatsappId.optional(),
  queueIds: userFields.queueIds.default([]),
  super: superFlag(),
  language: noneAsAbsent(userFields.language.optional()),
  maxOpenTickets: userFields.maxOpenTickets.optional(),
});
export type UserCreateBody = z.infer<typeof UserCreateBody>;

export const UserUpdateBody = z.object({
  name: userFields.name.optional(),
  email: userFields.email.optional(),
  /** An empty password means "keep the current one" (the user modal sends it so). */
  password: z.union([z.literal(''), password()]).optional(),
  profile: userFields.profile.optional(),
  allTicket: userFields.allTicket.optional(),
  whatsappId: userFields.whatsappId.optional(),
  queueIds: userFields.queueIds.optional(),
  super: superFlag(),
  language: noneAsAbsent(userFields.language.optional()),
  maxOpenTickets: userFields.maxOpenTickets.optional(),
});
export type UserUpdateBody = z.infer<typeof UserUpdateBody>;

const planFlagShape = Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, flag()])) as {
  [K in (typeof PLAN_FEATURES)[number]]: ReturnType<typeof flag>;
};
const planFlagDefaults = Object.fromEntries(PLAN_FEATURES.map((feature) => [feature, flag().default(true)])) as {
  [K in (typeof PLAN_FEATURES)[number]]: z.ZodDefault<ReturnType<typeof flag>>;
};

/**
 * A typed amount of money as a number: JSON numbers as they are, and text in the
 * Brazilian format the screens show (`99,90`, `1.234,56`, `R$ 10`) or with a decimal
 * point (`99.90`). Anything else is left as it is, for the number check to refuse.
 */
export function parseMoneyInput(input: unknown): unknown {
  if (typeof input !== 'string') return input;
  const text = input.replace(/^\s*R\$\s*/i, '').trim();
  if (text === '') return input;
  if (/^\d{1,3}(\.\d{3})+(,\d+)?$/.test(text) || /^\d+,\d+$/.test(text)) return Number(text.replace(/\./g, '').replace(',', '.'));
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  return input;
}

/** An amount in reais, 0 to `max`, in whole cents. */
const money = (max: number) =>
  z.preprocess(
    parseMoneyInput,
    z
      .number('validation.invalidNumber')
      .min(0, 'validation.invalidNumber')
      .max(max, 'validation.invalidNumber')
      .refine((value) => Math.abs(Math.round(value * 100) - value * 100) < 1e-6, 'validation.invalidNumber'),
  );

/** A plan's limit of users, connections or queues: 0 means no limit (the server checks `limit > 0`). */
const limit = () => z.coerce.number().int('validation.invalidNumber').min(0, 'validation.invalidNumber').max(100_000, 'validation.invalidNumber');

const planFields = {
  name: requiredText(1, 100),
  users: limit(),
  connections: limit(),
  queues: limit(),
  value: money(10_000_000),
  ...planFlagShape,
};

/** Plan (spec part 2 §3): flags default true, numbers default 0; value in reais. */
export const PlanBody = z.object({
  ...planFields,
  users: planFields.users.default(0),
  connections: planFields.connections.default(0),
  queues: planFields.queues.default(0),
  value: planFields.value.default(0),
  ...planFlagDefaults,
});
export type PlanBody = z.infer<typeof PlanBody>;
/** An edit changes only what it sends: no defaults, so a field left out keeps its stored value. */
export const PlanUpdateBody = z.object(planFields).partial();
export type PlanUpdateBody = z.infer<typeof PlanUpdateBody>;

/**
 * Help video (spec part 2 §3): title, video code, description. The code is a
 * YouTube video id; it ends up in an embed URL, so only the id's own characters pass.
 */
const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'youtube-nocookie.com', 'www.youtube-nocookie.com']);

/**
 * The video id of a pasted YouTube address (watch?v=, youtu.be/, /embed/,
 * /shorts/, /live/); anything else is returned as typed, for the id check to judge.
 */
export function youTubeVideoCode(input: string): string {
  if (!/^https?:\/\//i.test(input)) return input;
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return input;
  }
  if (!YOUTUBE_HOSTS.has(url.hostname.toLowerCase())) return input;
  const segments = url.pathname.split('/').filter(Boolean);
  if (url.hostname.toLowerCase() === 'youtu.be') return segments[0] ?? input;
  if (segments[0] === 'watch') return url.searchParams.get('v') ?? input;
  if (['embed', 'shorts', 'live', 'v'].includes(segments[0] ?? '')) return segments[1] ?? input;
  return input;
}

const helpFields = {
  title: requiredText(1, 100),
  video: z
    .string({ error: 'validation.required' })
    .trim()
    .max(300, 'validation.tooLong')
    .transform(youTubeVideoCode)
    .pipe(
      z
        .string()
        .min(1, 'validation.required')
        .max(64, 'validation.tooLong')
        .regex(/^[A-Za-z0-9_-]+$/, 'validation.invalidValue'),
    ),
  description: z.string().trim().max(1000, 'validation.tooLong'),
};
export const HelpBody = z.object({ ...helpFields, description: helpFields.description.optional().default('') });
export type HelpBody = z.infer<typeof HelpBody>;
/** No defaults here: a field left out of an edit keeps its stored value. */
export const HelpUpdateBody = z.object(helpFields).partial();
export type HelpUpdateBody = z.infer<typeof HelpUpdateBody>;

const hourOrClosed = () => z.union([z.literal(''), time()]);

/**
 * One weekday's business hours: up to two intervals, `startTime`–`endTime` (the morning) and
 * `startTimeB`–`endTimeB` (the afternoon), `HH:mm` or `''` when unused (docs/architecture.md,
 * "The whaticket v6 web client"). The whaticket v6 client names the first interval
 * `startTimeA`/`endTimeA`; either name is read, and what is stored (and this type) is the
 * normalised entry.
 */
export const ScheduleEntry = z
  .object({
    weekday: z.string().max(20),
    weekdayEn: z.enum(WEEKDAYS.map((w) => w.weekdayEn) as [string, ...string[]]),
    startTime: hourOrClosed().optional(),
    endTime: hourOrClosed().optional(),
    startTimeA: hourOrClosed().optional(),
    endTimeA: hourOrClosed().optional(),
    startTimeB: hourOrClosed().optional(),
    endTimeB: hourOrClosed().optional(),
  })
  .transform((entry) => ({
    weekday: entry.weekday,
    weekdayEn: entry.weekdayEn,
    startTime: entry.startTime ?? entry.startTimeA ?? '',
    endTime: entry.endTime ?? entry.endTimeA ?? '',
    startTimeB: entry.startTimeB ?? '',
    endTimeB: entry.endTimeB ?? '',
  }));
export type ScheduleEntry = z.output<typeof ScheduleEntry>;
/** A weekday's hours as answered: the stored entry plus the first interval under v6's names too. */
export type PresentedScheduleEntry = ScheduleEntry & { startTimeA: string; endTimeA: string };

/** Stored entries (older ones have no second interval) in the shape both clients read. */
export function presentSchedules(stored: readonly { weekday: string; weekdayEn: string; startTime: string; endTime: string; startTimeB?: string; endTimeB?: string }[]): PresentedScheduleEntry[] {
  return stored.map((entry) => ({
    weekday: entry.weekday,
    weekdayEn: entry.weekdayEn,
    startTime: entry.startTime,
    endTime: entry.endTime,
    startTimeA: entry.startTime,
    endTimeA: entry.endTime,
    startTimeB: entry.startTimeB ?? '',
    endTimeB: entry.endTimeB ?? '',
  }));
}
export const SchedulesBody = z.object({ schedules: z.array(ScheduleEntry).max(7) });

/**
 * A dueDate that is empty or not a date is sent as null (spec part 2 §5). One that
 * looks like a date must be a real one in the years 0001 to 9999: 2026-02-30 is
 * refused, not rolled over to March. `YYYY-MM-DD` is the form this API answers
 * with; an instant is accepted for older clients.
 */
const dueDate = () =>
  z.preprocess(
    (value) => {
      if (value === '' || value === undefined || value === null) return null;
      if (typeof value === 'string' && /^\s*\d{4}-\d{2}-\d{2}/.test(value)) return value.trim();
      const date = new Date(value as string);
      return Number.isNaN(date.getTime()) ? null : date.toISOString();
    },
    z
      .string()
      .nullable()
      .refine((value) => value === null || isCalendarDate(value) || (isDateTime(value) && /^(?!0000)\d{4}-/.test(new Date(value).toISOString())), 'validation.invalidDate')
      // A calendar date stays one; an instant is read as the company's day by the service (`dueDateDay`).
      .transform((value) => (value === null || isCalendarDate(value) ? value : new Date(value).toISOString())),
  );

export const CompanyBody = z.object({
  name: requiredText(2, 100),
  email: z.union([z.literal(''), email()]).optional(),
  phone: z.string().max(30, 'validation.tooLong').optional(),
  planId: id(),
  /** Sign-up stores 't' (spec part 2 §3), so 't'/'f' are accepted besides the usual flags. */
  status: z.union([z.enum(['t', 'f']).transform((v) => v === 't'), flag()]).optional(),
  dueDate: dueDate().optional(),
  recurrence: noneAsAbsent(z.enum(RECURRENCES, { error: 'validation.invalidValue' }).optional()),
  campaignsEnabled: flag().optional(),
  timezone: timeZone().optional(),
  /** With `email`, creates the company's first admin user. */
  password: z.string().min(5, 'validation.tooShort').max(50, 'validation.tooLong').optional(),
});
export type CompanyBody = z.infer<typeof CompanyBody>;
export const CompanyUpdateBody = CompanyBody.partial();
export type CompanyUpdateBody = z.infer<typeof CompanyUpdateBody>;

export const SettingUpdateBody = z.object({
  key: z.string().max(100).optional(),
  value: z.string({ error: 'validation.required' }).max(500, 'validation.tooLong'),
});
