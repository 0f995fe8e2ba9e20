import { describe, expect, it } from 'vitest';
import { STORAGE } from '../../api/storage-keys';
import { playNotificationSound, storedVolume } from './notification-sound';

describe('storedVolume', () => {
  it('reads the volume the top bar stored, within 0 to 1', () => {
    expect(storedVolume()).toBe(1);
    localStorage.setItem(STORAGE.volume, '0.3');
    expect(storedVolume()).toBe(0.3);
    localStorage.setItem(STORAGE.volume, '7');
    expect(storedVolume()).toBe(1);
    localStorage.setItem(STORAGE.volume, 'loud');
    expect(storedVolume()).toBe(1);
  });
});

describe('playNotificationSound', () => {
  it('does not throw where the browser has no audio', () => {
    expect(() => playNotificationSound(0.5)).not.toThrow();
  });
});
