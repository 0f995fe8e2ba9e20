import type { PresentedQuickMessage, PresentedQuickMessagePage } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildQuickMessage } from '../../test/build-quick-message';
import { removeQuickMessage, upsertQuickMessage } from './quick-messages-queries';

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
