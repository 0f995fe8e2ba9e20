import { CONNECTION_STATUSES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { sessionButtonsFor, STATUS_COLOR } from './connection-status';

describe('session buttons per status (spec part 2 §2.2)', () => {
  it('offers the QR dialog while a code waits to be scanned', () => {
    expect(sessionButtonsFor('qrcode')).toEqual(['qrcode']);
  });

  it('offers Try again and New QR when disconnected', () => {
    expect(sessionButtonsFor('DISCONNECTED')).toEqual(['retry', 'newQr']);
  });

  it('offers Disconnect when connected, pairing or timed out', () => {
    for (const status of ['CONNECTED', 'PAIRING', 'TIMEOUT']) expect(sessionButtonsFor(status)).toEqual(['disconnect']);
  });

  it('shows only the disabled Connecting button while opening', () => {
    expect(sessionButtonsFor('OPENING')).toEqual(['connecting']);
  });

  it('covers every status the server writes, and offers nothing for an unknown one', () => {
    for (const status of CONNECTION_STATUSES) {
      expect(sessionButtonsFor(status).length).toBeGreaterThan(0);
      expect(STATUS_COLOR[status]).toBeDefined();
    }
    expect(sessionButtonsFor('SOMETHING_ELSE')).toEqual([]);
  });
});
