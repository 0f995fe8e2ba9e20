/**
 * Wall-clock times in the company's time zone (schedules are typed and shown in
 * it, whatever the browser's zone). The server reads a send time without an
 * offset in the company's zone too.
 */

export function browserTimeZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

function parts(date: Date, timeZone: string): Record<string, number> {
  const formatted = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(date);
  const result: Record<string, number> = {};
  for (const part of formatted) if (part.type !== 'literal') result[part.type] = Number(part.value);
  return result;
}

const pad = (value: number | undefined) => String(value ?? 0).padStart(2, '0');

/** `yyyy-MM-ddTHH:mm` of an instant in a zone (a datetime-local input's value). */
export function toLocalInput(date: Date, timeZone: string): string {
  const p = parts(date, timeZone);
  return `${p.year}-${pad(p.month)}-${pad(p.day)}T${pad(p.hour)}:${pad(p.minute)}`;
}

/**
 * A Date whose browser-local fields show the instant's wall clock in `timeZone`:
 * what the calendar (which lays events out in local time) needs to show company time.
 */
export function zonedWallClock(date: Date, timeZone: string): Date {
  const p = parts(date, timeZone);
  return new Date(p.year ?? 1970, (p.month ?? 1) - 1, p.day ?? 1, p.hour ?? 0, p.minute ?? 0, p.second ?? 0);
}

/** The spec's default send time: now plus one hour, as the dialog's input shows it. */
export function defaultSendAt(timeZone: string, now = new Date()): string {
  return toLocalInput(new Date(now.getTime() + 3_600_000), timeZone);
}

/** Date and time in the zone, for labels (DD/MM/yyyy HH:mm). */
export function formatInZone(iso: string, timeZone: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { timeZone, day: '2-digit', month: '2-digit', year: 'numeric', hour: '2-digit', minute: '2-digit' }).format(new Date(iso));
}
