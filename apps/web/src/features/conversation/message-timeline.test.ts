import type { PresentedMessage, PresentedMessagePage } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildMessage } from '../../test/build-message';
import { buildTicket } from '../../test/build-ticket';
import { buildTimeline, mergeMessages, replaceMessage, upsertMessage, type MessagesCache } from './message-timeline';

const message = (id: number, createdAt: string, extra: Partial<PresentedMessage> = {}): PresentedMessage => buildMessage(id, { createdAt, ...extra });

const page = (messages: PresentedMessage[], hasMore = false): PresentedMessagePage => ({ messages, hasMore, ticket: buildTicket(1) });
const cacheOf = (...pages: PresentedMessagePage[]): MessagesCache => ({ pages, pageParams: pages.map((_, i) => i + 1) });

describe('merging message pages', () => {
  it('orders the newest-first pages oldest first and drops copies of the same id', () => {
    // Page 2 was fetched after a new message shifted the offsets: message 3 comes twice.
    const newest = page([message(3, '2026-01-01T10:03:00Z'), message(4, '2026-01-01T10:04:00Z')]);
    const older = page([message(2, '2026-01-01T10:02:00Z'), message(3, '2026-01-01T10:03:00Z', { body: 'stale' })]);
    const merged = mergeMessages([newest, older]);
    expect(merged.map((m) => m.id)).toEqual([2, 3, 4]);
    expect(merged.find((m) => m.id === 3)?.body).toBe('m3');
  });

  it('breaks ties of the same time by id', () => {
    const at = '2026-01-01T10:00:00Z';
    expect(mergeMessages([page([message(9, at), message(7, at)])]).map((m) => m.id)).toEqual([7, 9]);
  });

  it('adds a created message once, whether the live event or the send answer comes first', () => {
    const cache = cacheOf(page([message(1, '2026-01-01T10:00:00Z')]), page([message(0, '2026-01-01T09:00:00Z')]));
    const sent = message(2, '2026-01-01T10:01:00Z', { fromMe: true, ack: 1 });
    const once = upsertMessage(cache, sent);
    const twice = upsertMessage(once, { ...sent, ack: 2 });
    expect(mergeMessages(twice!.pages).map((m) => [m.id, m.ack])).toEqual([
      [0, 0],
      [1, 0],
      [2, 2],
    ]);
  });

  it('replaces updated messages wherever they are and ignores unknown ones', () => {
    const cache = cacheOf(page([message(5, '2026-01-01T10:00:00Z')]), page([message(4, '2026-01-01T09:00:00Z')]));
    const updated = replaceMessage(cache, message(4, '2026-01-01T09:00:00Z', { isDeleted: true }));
    expect(updated!.pages[1]!.messages[0]!.isDeleted).toBe(true);
    expect(replaceMessage(cache, message(99, '2026-01-01T09:00:00Z'))).toBe(cache);
    expect(upsertMessage(undefined, message(1, '2026-01-01T09:00:00Z'))).toBeUndefined();
  });
});

describe('timeline separators', () => {
  it('puts a day separator before the first message of each day', () => {
    const items = buildTimeline([message(1, '2026-01-01T10:00:00'), message(2, '2026-01-01T11:00:00'), message(3, '2026-01-02T09:00:00')]);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'message', 'day', 'message']);
  });

  it('marks where one ticket ends and the next starts, at the times of their messages', () => {
    const last = message(1, '2026-01-01T10:00:00', { ticketId: 7 });
    const first = message(2, '2026-01-03T08:00:00', { ticketId: 9 });
    const items = buildTimeline([last, first]);
    expect(items.map((i) => i.kind)).toEqual(['day', 'message', 'ended', 'day', 'started', 'message']);
    expect(items[2]).toMatchObject({ kind: 'ended', date: last.createdAt });
    expect(items[4]).toMatchObject({ kind: 'started', date: first.createdAt });
  });

  it('has no ticket boundary within one ticket and unique keys', () => {
    const items = buildTimeline([message(1, '2026-01-01T10:00:00'), message(2, '2026-01-01T10:01:00', { ticketId: 2 }), message(3, '2026-01-01T10:02:00', { ticketId: 2 })]);
    expect(items.filter((i) => i.kind === 'started')).toHaveLength(1);
    expect(new Set(items.map((i) => i.key)).size).toBe(items.length);
  });
});
