import { describe, expect, it } from 'vitest';
import { convertSession } from './session.js';
import { dueDay } from './values.js';

describe('a whaticket Baileys session as Atende key rows', () => {
  it('moves the credentials and every signal key, values as they were written (BufferJSON)', () => {
    const session = JSON.stringify({
      creds: { me: { id: '5511999990000:1@s.whatsapp.net' }, noiseKey: { private: { type: 'Buffer', data: 'AAEC' } } },
      keys: { preKeys: { '7': { public: { type: 'Buffer', data: 'AwQF' } } }, appStateSyncKeys: { abc: { keyData: 'x' } }, lidMapping: { '1': 'lid' }, unknownGroup: { a: 1 } },
    });
    expect(convertSession(session)).toEqual({
      keys: [
        { key: 'creds', value: '{"me":{"id":"5511999990000:1@s.whatsapp.net"},"noiseKey":{"private":{"type":"Buffer","data":"AAEC"}}}' },
        { key: 'pre-key/7', value: '{"public":{"type":"Buffer","data":"AwQF"}}' },
        { key: 'app-state-sync-key/abc', value: '{"keyData":"x"}' },
        { key: 'lid-mapping/1', value: '"lid"' },
      ],
    });
  });

  it('keeps nothing of a session never paired, unreadable or absent, and says why', () => {
    expect(convertSession(JSON.stringify({ creds: { noiseKey: {} }, keys: {} }))).toEqual({ keys: [], problem: 'never paired' });
    expect(convertSession('{not json')).toEqual({ keys: [], problem: 'not JSON' });
    expect(convertSession(null)).toEqual({ keys: [] });
    expect(convertSession('')).toEqual({ keys: [] });
  });
});

describe('a whaticket due date as a calendar date', () => {
  it('reads midnight UTC as that day, another instant as its day in São Paulo, none as no expiry', () => {
    expect(dueDay(new Date('2027-03-10T00:00:00.000Z'))).toBe('2027-03-10');
    expect(dueDay(new Date('2027-03-10T02:00:00.000Z'))).toBe('2027-03-09');
    expect(dueDay(new Date('2027-03-10T03:00:00.000Z'))).toBe('2027-03-10');
    expect(dueDay(null)).toBe('2999-12-31');
  });
});
