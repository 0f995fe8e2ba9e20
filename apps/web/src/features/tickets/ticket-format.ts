import { MEDIA_PREVIEWS, type MediaPreviewKind } from '@atende/shared';
import { calendarDay, displayTimeZone, formatDate, formatTime, today } from '../../i18n/dates';

/** Spec part 1 §9: the list shows HH:mm for a ticket updated today, dd/MM/yyyy otherwise (company zone). */
export function formatTicketTime(updatedAt: string, now: Date = new Date(), timeZone: string = displayTimeZone()): string {
  const day = calendarDay(updatedAt, timeZone);
  if (!day) return '';
  return day === today(timeZone, now) ? formatTime(updatedAt, timeZone) : formatDate(updatedAt, timeZone);
}

/** Spec part 1 §9: under 600 px a contact name over 10 characters is shortened. */
const NARROW_NAME_LENGTH = 10;

export function shortenName(name: string, narrow: boolean): string {
  // Array.from counts emoji and accented letters as one character each.
  const chars = Array.from(name);
  if (!narrow || chars.length <= NARROW_NAME_LENGTH) return name;
  return `${chars.slice(0, NARROW_NAME_LENGTH).join('')}…`;
}

export type LastMessageKind = 'text' | 'location' | 'call' | 'vcard' | MediaPreviewKind;

const MEDIA_KINDS = new Map(Object.entries(MEDIA_PREVIEWS).map(([kind, word]) => [word as string, kind as MediaPreviewKind]));

/**
 * The server stores a neutral word as the last message when a message has no text
 * (a location, a contact, a file's kind: lastMessagePreview), and a shared location
 * arrives as a maps link:
 * the list shows a word for those instead of the raw value.
 */
export function lastMessageKind(lastMessage: string | null | undefined): LastMessageKind {
  const value = (lastMessage ?? '').trim();
  if (value === 'locationMessage' || /^https:\/\/(www\.)?maps\./i.test(value) || /^https:\/\/(www\.)?google\.[a-z.]+\/maps/i.test(value)) {
    return 'location';
  }
  if (value === 'call_log') return 'call';
  if (value === 'vcard' || value === 'contactMessage') return 'vcard';
  return MEDIA_KINDS.get(value) ?? 'text';
}
