import { describe, expect, it } from 'vitest';
import { ackState, locationLink, parseVcard } from './message-content';

describe('message content', () => {
  it('maps acks: 0 pending, 1 sent, 2 delivered, 3 read, 4 and 5 highlighted', () => {
    expect([0, 1, 2, 3, 4, 5].map(ackState)).toEqual(['pending', 'sent', 'delivered', 'read', 'played', 'played']);
  });

  it('finds the map link of a location, or builds one from coordinates', () => {
    expect(locationLink('data:image/png;base64,AAA|https://maps.google.com/maps?q=-23.5,-46.6')).toBe('https://maps.google.com/maps?q=-23.5,-46.6');
    expect(locationLink('-23.5505, -46.6333')).toBe('https://www.openstreetmap.org/?mlat=-23.5505&mlon=-46.6333#map=16/-23.5505/-46.6333');
    expect(locationLink('somewhere')).toBeNull();
    expect(locationLink('95,10')).toBeNull();
  });

  it('reads name and number from a vCard', () => {
    const card = 'BEGIN:VCARD\nVERSION:3.0\nN:Silva;Maria;;;\nFN:Maria Silva\nitem1.TEL;waid=5511999990000:+55 11 99999-0000\nEND:VCARD';
    expect(parseVcard(card)).toEqual({ name: 'Maria Silva', number: '5511999990000' });
    expect(parseVcard('BEGIN:VCARD\nN:Souza;João\nTEL;type=CELL:+5511988887777\nEND:VCARD')).toEqual({ name: 'Souza João', number: '+5511988887777' });
    expect(parseVcard('João')).toEqual({ name: 'João', number: '' });
  });
});
