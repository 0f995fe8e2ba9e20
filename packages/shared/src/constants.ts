export const APP_VERSION = '6.0.0';

export const LANGUAGES = ['pt', 'en', 'es'] as const;
export type Language = (typeof LANGUAGES)[number];

export const PROFILES = ['admin', 'user'] as const;
export type Profile = (typeof PROFILES)[number];

/** Spelled as the spec spells it ('desabled'). */
export const ALL_TICKET_VALUES = ['enabled', 'desabled'] as const;
export type AllTicket = (typeof ALL_TICKET_VALUES)[number];

export const RECURRENCE_MONTHS = {
  MENSAL: 1,
  BIMESTRAL: 2,
  TRIMESTRAL: 3,
  SEMESTRAL: 6,
  ANUAL: 12,
} as const;
export type Recurrence = keyof typeof RECURRENCE_MONTHS;
export const RECURRENCES = Object.keys(RECURRENCE_MONTHS) as Recurrence[];

export const WEEKDAYS = [
  { weekday: 'Segunda-feira', weekdayEn: 'monday' },
  { weekday: 'Terça-feira', weekdayEn: 'tuesday' },
  { weekday: 'Quarta-feira', weekdayEn: 'wednesday' },
  { weekday: 'Quinta-feira', weekdayEn: 'thursday' },
  { weekday: 'Sexta-feira', weekdayEn: 'friday' },
  { weekday: 'Sábado', weekdayEn: 'saturday' },
  { weekday: 'Domingo', weekdayEn: 'sunday' },
] as const;

/** Default attendance hours (spec part 2 §9): Mon–Fri 08–18, Sat 08–12, Sun closed. */
export const DEFAULT_SCHEDULES = WEEKDAYS.map(({ weekday, weekdayEn }) => ({
  weekday,
  weekdayEn,
  startTime: weekdayEn === 'sunday' ? '00:00' : '08:00',
  endTime: weekdayEn === 'sunday' ? '00:00' : weekdayEn === 'saturday' ? '12:00' : '18:00',
  startTimeB: '',
  endTimeB: '',
}));

export const DEFAULT_TIMEZONE = 'America/Sao_Paulo';

/** Warning on login when the subscription ends in fewer than this many days. */
export const DUE_DATE_WARNING_DAYS = 5;

export const PAGE_SIZE = 20;

/** Socket.IO ping interval and timeout (spec part 1 §9). */
export const SOCKET_PING_MS = 18_000;
/** userStatus heartbeat (spec part 1 §9). */
export const USER_STATUS_INTERVAL_MS = 300_000;

/** The largest file any upload takes (media, attachments, lists); larger answers 413 ERR_PAYLOAD_TOO_LARGE. */
export const MAX_UPLOAD_BYTES = 16 * 1024 * 1024;

/**
 * What a ticket's stored preview (`lastMessage`) says for a file sent without a caption:
 * a neutral word per kind, which the web shows in the reader's language. A document
 * is shown by its file name instead, when it has one.
 */
export const MEDIA_PREVIEWS = {
  image: 'imageMessage',
  video: 'videoMessage',
  audio: 'audioMessage',
  voice: 'voiceMessage',
  sticker: 'stickerMessage',
  document: 'documentMessage',
} as const;
export type MediaPreviewKind = keyof typeof MEDIA_PREVIEWS;
