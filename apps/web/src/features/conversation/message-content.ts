/** Reading the special message kinds the channels store as text (spec part 1 §3). */

export type AckState = 'pending' | 'sent' | 'delivered' | 'read' | 'played';

/** Spec part 1 §9: 1 sent, 2 delivered, 3 read, 4 or 5 read with a highlighted colour; 0 not yet sent. */
export function ackState(ack: number): AckState {
  if (ack >= 4) return 'played';
  if (ack === 3) return 'read';
  if (ack === 2) return 'delivered';
  if (ack === 1) return 'sent';
  return 'pending';
}

/**
 * A location arrives as a maps link (possibly after a preview image, separated
 * by '|') or as "latitude,longitude".
 */
export function locationLink(body: string): string | null {
  const link = /https?:\/\/[^\s|]+/i.exec(body);
  if (link) return link[0];
  const coords = /(-?\d{1,2}(?:\.\d+)?)\s*,\s*(-?\d{1,3}(?:\.\d+)?)/.exec(body);
  if (!coords) return null;
  const [lat, lng] = [Number(coords[1]), Number(coords[2])];
  if (Math.abs(lat) > 90 || Math.abs(lng) > 180) return null;
  return `https://www.openstreetmap.org/?mlat=${lat}&mlon=${lng}#map=16/${lat}/${lng}`;
}

/** Name and number of a shared contact card (vCard text); plain text is taken as the name. */
export function parseVcard(body: string): { name: string; number: string } {
  if (!/BEGIN:VCARD/i.test(body)) return { name: body.trim(), number: '' };
  const lines = body.split(/\r?\n/);
  const value = (prefix: RegExp) => {
    const line = lines.find((l) => prefix.test(l));
    return line ? line.slice(line.indexOf(':') + 1).trim() : '';
  };
  const waid = /waid=(\d+)/i.exec(body)?.[1];
  return { name: value(/^FN[:;]/i) || value(/^N[:;]/i).replace(/;+/g, ' ').trim(), number: waid ?? value(/^(item\d+\.)?TEL[:;]/i) };
}
