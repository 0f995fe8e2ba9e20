import type { PresentedMessage, PresentedMessagePage } from '@atende/shared';
import type { InfiniteData } from '@tanstack/react-query';
import { calendarDay } from '../../i18n/dates';

/** Oldest first; equal times keep the server's order by id. */
function byCreatedAt(a: PresentedMessage, b: PresentedMessage): number {
  const diff = new Date(a.createdAt).getTime() - new Date(b.createdAt).getTime();
  return diff !== 0 ? diff : a.id - b.id;
}

/**
 * The pages as one conversation (spec part 1 §4): merged by id, ordered by
 * creation. Pages are fetched by offset, so a message that arrived meanwhile
 * shifts the next page and the same message can come twice: the newest copy
 * (the first page holding it) wins.
 */
export function mergeMessages(pages: readonly { messages: readonly PresentedMessage[] }[]): PresentedMessage[] {
  const byId = new Map<number, PresentedMessage>();
  for (const page of pages) {
    for (const message of page.messages) if (!byId.has(message.id)) byId.set(message.id, message);
  }
  return [...byId.values()].sort(byCreatedAt);
}

export type MessagesCache = InfiniteData<PresentedMessagePage, number>;

/**
 * A created message into the cache (live event or the answer to our own send):
 * a message already there is replaced, so whichever of the two arrives second
 * does not duplicate it.
 */
export function upsertMessage(cache: MessagesCache | undefined, message: PresentedMessage): MessagesCache | undefined {
  if (!cache || cache.pages.length === 0) return cache;
  const replaced = replaceMessage(cache, message);
  if (replaced !== cache) return replaced;
  const [first, ...rest] = cache.pages;
  return { ...cache, pages: [{ ...first!, messages: [...first!.messages, message] }, ...rest] };
}

/** An updated message (ack, edit, deletion) replaces its copies; unknown messages are ignored. */
export function replaceMessage(cache: MessagesCache | undefined, message: PresentedMessage): MessagesCache | undefined {
  if (!cache) return cache;
  let found = false;
  const pages = cache.pages.map((page) => {
    if (!page.messages.some((m) => m.id === message.id)) return page;
    found = true;
    return { ...page, messages: page.messages.map((m) => (m.id === message.id ? message : m)) };
  });
  return found ? { ...cache, pages } : cache;
}

export type TimelineItem =
  | { kind: 'day'; key: string; date: string }
  | { kind: 'ended'; key: string; date: string }
  | { kind: 'started'; key: string; date: string }
  | { kind: 'message'; key: string; message: PresentedMessage };

/** The day a message belongs to, in the company's zone (the separators follow the company's days). */
const dayOf = (value: string) => calendarDay(value);

/**
 * What the list shows between messages (spec part 1 §2): a day separator when the
 * company's day changes, and when the ticket changes the end of the previous
 * conversation (at its last message) and the start of the next one.
 */
export function buildTimeline(messages: readonly PresentedMessage[]): TimelineItem[] {
  const items: TimelineItem[] = [];
  let previous: PresentedMessage | undefined;
  for (const message of messages) {
    const ticketChanged = previous !== undefined && previous.ticketId !== message.ticketId;
    if (ticketChanged) items.push({ kind: 'ended', key: `ended-${previous!.id}`, date: previous!.createdAt });
    if (!previous || dayOf(previous.createdAt) !== dayOf(message.createdAt)) {
      items.push({ kind: 'day', key: `day-${message.id}`, date: message.createdAt });
    }
    if (ticketChanged) items.push({ kind: 'started', key: `started-${message.id}`, date: message.createdAt });
    items.push({ kind: 'message', key: `message-${message.id}`, message });
    previous = message;
  }
  return items;
}
