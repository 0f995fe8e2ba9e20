import { toZonedInput } from '../../i18n/dates';

/** The spec's default send time: now plus one hour, as the dialog's input shows it (company zone). */
export function defaultSendAt(timeZone: string, now = new Date()): string {
  return toZonedInput(new Date(now.getTime() + 3_600_000), timeZone);
}
