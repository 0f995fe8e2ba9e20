import type { PresentedContact, PresentedContactPage } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { buildContact } from '../../test/build-contact';
import { removeContactFromPages, upsertContactInPages } from './contacts-queries';

const contact = (id: number, name: string, number = `55119000000${id}`): PresentedContact => buildContact(id, { name, number });

function pages(...lists: PresentedContact[][]) {
  const count = lists.flat().length;
  return { pageParams: lists.map((_, i) => i + 1), pages: lists.map((contacts, i): PresentedContactPage => ({ contacts, hasMore: i < lists.length - 1, count })) };
}

describe('live contact events in the list cache', () => {
  it('replaces a listed contact where it is, on any page, without changing the count', () => {
    const data = pages([contact(1, 'Ana')], [contact(2, 'Bia')]);
    const next = upsertContactInPages(data, contact(2, 'Beatriz'), '');
    expect(next.pages[1]?.contacts.map((c) => c.name)).toEqual(['Beatriz']);
    expect(next.pages[0]?.count).toBe(2);
  });

  it('puts a new contact on top and counts it, only in lists whose search it matches', () => {
    const data = pages([contact(1, 'Ana')]);
    const added = upsertContactInPages(data, contact(3, 'Carla'), '');
    expect(added.pages[0]?.contacts.map((c) => c.name)).toEqual(['Carla', 'Ana']);
    expect(added.pages[0]?.count).toBe(2);
    expect(upsertContactInPages(data, contact(3, 'Carla'), 'ana')).toBe(data);
    expect(upsertContactInPages(data, contact(3, 'Carla', '5521988887777'), '552198').pages[0]?.contacts).toHaveLength(2);
  });

  it('removes a deleted contact and lowers the count; an unknown id changes nothing', () => {
    const data = pages([contact(1, 'Ana'), contact(2, 'Bia')]);
    const next = removeContactFromPages(data, 1);
    expect(next.pages[0]?.contacts.map((c) => c.id)).toEqual([2]);
    expect(next.pages[0]?.count).toBe(1);
    expect(removeContactFromPages(data, 99)).toBe(data);
  });
});
