import { MEDIA_PREVIEWS } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { formatTicketTime, lastMessageKind, shortenName } from './ticket-format';

describe('formatTicketTime', () => {
  const now = new Date(2025, 4, 20, 18, 30);

  it('shows HH:mm for a ticket updated today', () => {
    expect(formatTicketTime(new Date(2025, 4, 20, 9, 5).toISOString(), now)).toBe('09:05');
    expect(formatTicketTime(new Date(2025, 4, 20, 0, 0).toISOString(), now)).toBe('00:00');
  });

  it('shows dd/MM/yyyy for any other day, even yesterday late at night', () => {
    expect(formatTicketTime(new Date(2025, 4, 19, 23, 59).toISOString(), now)).toBe('19/05/2025');
    expect(formatTicketTime(new Date(2024, 4, 20, 9, 5).toISOString(), now)).toBe('20/05/2024');
  });

  it('shows nothing for an unreadable date', () => {
    expect(formatTicketTime('not a date', now)).toBe('');
  });
});

describe('shortenName', () => {
  it('cuts names over 10 characters on a narrow screen', () => {
    expect(shortenName('Maria Aparecida', true)).toBe('Maria Apar…');
  });

  it('keeps names of 10 characters or fewer, and every name on a wide screen', () => {
    expect(shortenName('Maria Lima', true)).toBe('Maria Lima');
    expect(shortenName('Maria Aparecida', false)).toBe('Maria Aparecida');
  });

  it('counts accented letters and emoji as one character', () => {
    expect(shortenName('João 😀 Conceição', true)).toBe('João 😀 Con…');
  });
});

describe('lastMessageKind', () => {
  it('recognizes a location as a marker or a maps link', () => {
    expect(lastMessageKind('locationMessage')).toBe('location');
    expect(lastMessageKind('https://maps.google.com/maps?q=-23.5,-46.6')).toBe('location');
    expect(lastMessageKind('https://www.google.com/maps/place/x')).toBe('location');
  });

  it('recognizes calls and contact cards, and leaves text alone', () => {
    expect(lastMessageKind('call_log')).toBe('call');
    expect(lastMessageKind('vcard')).toBe('vcard');
    expect(lastMessageKind('see https://maps.google.com please')).toBe('text');
    expect(lastMessageKind('Olá')).toBe('text');
    expect(lastMessageKind('')).toBe('text');
  });

  it('recognizes the word the server stores for each kind of file without caption', () => {
    for (const [kind, word] of Object.entries(MEDIA_PREVIEWS)) expect(lastMessageKind(word)).toBe(kind);
    expect(lastMessageKind('imageMessage please')).toBe('text');
  });
});
