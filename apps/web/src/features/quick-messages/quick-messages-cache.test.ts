import type { PresentedQuickMessage, PresentedQuickMessagePage } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildQuickMessage } from '../../test/build-quick-message';
import { quickMessageAudience, removeQuickMessage, upsertQuickMessage } from './quick-messages-queries';

const record = (id: number, shortcode: string): PresentedQuickMessage => buildQuickMessage(id, { shortcode, message: `text of ${shortcode}`, geral: true });

const pages = (...lists: PresentedQuickMessage[][]) => ({ pageParams: lists.map((_, i) => i + 1), pages: lists.map((records): PresentedQuickMessagePage => ({ records, hasMore: false, count: records.length })) });

describe('live quick message events', () => {
  it('replaces an edited record in place', () => {
    const next = upsertQuickMessage(pages([record(1, 'oi'), record(2, 'tchau')]), { ...record(2, 'tchau'), mediaName: 'a.pdf' }, '');
    expect(next.pages[0]?.records[1]?.mediaName).toBe('a.pdf');
  });

  it('adds a created record on top when it matches the search', () => {
    const data = pages([record(1, 'oi')]);
    expect(upsertQuickMessage(data, record(2, 'bomdia'), '').pages[0]?.records.map((r) => r.shortcode)).toEqual(['bomdia', 'oi']);
    expect(upsertQuickMessage(data, record(2, 'bomdia'), 'tchau')).toBe(data);
  });

  it('removes a deleted record', () => {
    expect(removeQuickMessage(pages([record(1, 'oi')], [record(2, 'tchau')]), 2).pages.map((p) => p.records.length)).toEqual([1, 0]);
  });
});

describe('who sees a quick message, as the list says it', () => {
  it('everyone for a shared one, else only its author: "only you" when that is the reader', () => {
    expect(quickMessageAudience({ geral: true, userId: 2 }, 5)).toBe('everyone');
    expect(quickMessageAudience({ geral: false, userId: 5 }, 5)).toBe('onlyYou');
    expect(quickMessageAudience({ geral: false, userId: 2 }, 5)).toBe('onlyAuthor');
  });
});
