import { act, render, screen } from '@testing-library/react';
import { useEffect } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ANNOUNCE_DELAY_MS, LiveAnnouncerProvider, useAnnounce } from './live-announcer';

const speaker: { announce(text: string): void } = { announce: () => undefined };
const announce = (text: string) => speaker.announce(text);

function Speaker() {
  const say = useAnnounce();
  useEffect(() => {
    speaker.announce = say;
  }, [say]);
  return null;
}

beforeEach(() => vi.useFakeTimers());
afterEach(() => vi.useRealTimers());

describe('live announcer', () => {
  it('writes each text into one polite, atomic status region, emptied first so a repeated text is read again', () => {
    render(
      <LiveAnnouncerProvider>
        <Speaker />
      </LiveAnnouncerProvider>,
    );
    const region = screen.getByRole('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.getAttribute('aria-atomic')).toBe('true');
    expect(region.textContent).toBe('');

    act(() => {
      announce('New message from Maria: hello');
    });
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(region.textContent).toBe('New message from Maria: hello');

    // The same text again: the region empties, then says it once more.
    act(() => {
      announce('New message from Maria: hello');
    });
    expect(region.textContent).toBe('');
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(region.textContent).toBe('New message from Maria: hello');

    // Two in a row: the later one wins, nothing half-written.
    act(() => {
      announce('first');
      announce('second');
    });
    act(() => {
      vi.advanceTimersByTime(ANNOUNCE_DELAY_MS);
    });
    expect(region.textContent).toBe('second');
  });
});
