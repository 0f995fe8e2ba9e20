import { afterEach, describe, expect, it, vi } from 'vitest';
import { settledWithin } from './settled-within';

afterEach(() => {
  vi.useRealTimers();
});

describe('settledWithin', () => {
  it('settles with the work, failed or not, before its time is up', async () => {
    await expect(settledWithin(Promise.resolve('in'), 60_000)).resolves.toBeUndefined();
    await expect(settledWithin(Promise.reject(new Error('offline')), 60_000)).resolves.toBeUndefined();
  });

  it('stops waiting for work that hangs once its time is up', async () => {
    vi.useFakeTimers();
    let settled = false;
    void settledWithin(new Promise(() => undefined), 3000).then(() => (settled = true));
    await vi.advanceTimersByTimeAsync(2999);
    expect(settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(settled).toBe(true);
  });
});
