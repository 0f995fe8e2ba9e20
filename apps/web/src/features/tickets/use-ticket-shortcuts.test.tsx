import { fireEvent, render, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { neighbourTicket, QUICK_REPLY_EVENT, SHORTCUT_ATTRIBUTE, useTicketShortcuts } from './use-ticket-shortcuts';

const tickets = [
  { uuid: 'a', status: 'open' },
  { uuid: 'b', status: 'pending' },
  { uuid: 'c', status: 'open' },
];

function setup(selectedUuid: string | undefined = 'a') {
  const onOpen = vi.fn();
  const onHelp = vi.fn();
  renderHook(() => useTicketShortcuts({ tickets, selectedUuid, onOpen, onHelp }));
  return { onOpen, onHelp };
}

afterEach(() => {
  document.body.innerHTML = '';
});

describe('neighbourTicket', () => {
  it('steps over pending tickets and stops at the ends', () => {
    expect(neighbourTicket(tickets, 'a', 1)?.uuid).toBe('c');
    expect(neighbourTicket(tickets, 'c', -1)?.uuid).toBe('a');
    expect(neighbourTicket(tickets, 'c', 1)).toBeNull();
    expect(neighbourTicket(tickets, undefined, 1)?.uuid).toBe('a');
    expect(neighbourTicket(tickets, undefined, -1)?.uuid).toBe('c');
    expect(neighbourTicket([{ uuid: 'b', status: 'pending' }], undefined, 1)).toBeNull();
  });
});

describe('useTicketShortcuts', () => {
  it('moves through the list with j/k and Alt+arrows', () => {
    const { onOpen } = setup('a');
    fireEvent.keyDown(document.body, { key: 'j' });
    fireEvent.keyDown(document.body, { key: 'ArrowDown', altKey: true });
    fireEvent.keyDown(document.body, { key: 'k' });
    expect(onOpen.mock.calls.map(([ticket]) => (ticket as { uuid: string }).uuid)).toEqual(['c', 'c']);
  });

  it('ignores keys typed in a text field, with Ctrl held, or inside a dialog', () => {
    const { onOpen, onHelp } = setup('a');
    render(
      <>
        <input aria-label="field" />
        <div role="dialog">
          <button type="button">inside</button>
        </div>
      </>,
    );
    fireEvent.keyDown(document.querySelector('input')!, { key: 'j' });
    fireEvent.keyDown(document.querySelector('input')!, { key: '?' });
    fireEvent.keyDown(document.body, { key: 'j', ctrlKey: true });
    fireEvent.keyDown(document.querySelector('[role="dialog"] button')!, { key: 'j' });
    expect(onOpen).not.toHaveBeenCalled();
    expect(onHelp).not.toHaveBeenCalled();
  });

  it('leaves a text field on Escape, after which the letters are shortcuts again', () => {
    const { onOpen } = setup('a');
    render(<textarea aria-label="composer" />);
    const field = document.querySelector('textarea')!;
    field.focus();
    fireEvent.keyDown(field, { key: 'j' });
    fireEvent.keyDown(field, { key: 'Escape' });
    expect(document.activeElement).not.toBe(field);
    fireEvent.keyDown(document.body, { key: 'j' });
    expect(onOpen).toHaveBeenCalledOnce();
  });

  it('opens the help with ?', () => {
    const { onHelp } = setup();
    fireEvent.keyDown(document.body, { key: '?' });
    expect(onHelp).toHaveBeenCalledOnce();
  });

  it('clicks the marked accept and close buttons (not disabled ones) and focuses the composer', () => {
    setup();
    const accept = vi.fn();
    const close = vi.fn();
    render(
      <>
        <button type="button" onClick={accept} {...{ [SHORTCUT_ATTRIBUTE]: 'accept' }}>
          accept
        </button>
        <button type="button" disabled onClick={close} {...{ [SHORTCUT_ATTRIBUTE]: 'close' }}>
          close
        </button>
        <textarea aria-label="composer" {...{ [SHORTCUT_ATTRIBUTE]: 'composer' }} />
      </>,
    );
    fireEvent.keyDown(document.body, { key: 'a' });
    fireEvent.keyDown(document.body, { key: 'c' });
    expect(accept).toHaveBeenCalledOnce();
    expect(close).not.toHaveBeenCalled();
    const typed = fireEvent.keyDown(document.body, { key: 'r' });
    expect(document.activeElement).toBe(document.querySelector('textarea'));
    // The key itself is not typed into the composer it focused.
    expect(typed).toBe(false);
  });

  it('asks the composer for a quick reply with q, only when there is one', () => {
    setup();
    const quickReply = vi.fn();
    window.addEventListener(QUICK_REPLY_EVENT, quickReply);
    fireEvent.keyDown(document.body, { key: 'q' });
    expect(quickReply).not.toHaveBeenCalled();
    render(<textarea aria-label="composer" {...{ [SHORTCUT_ATTRIBUTE]: 'composer' }} />);
    fireEvent.keyDown(document.body, { key: 'q' });
    expect(quickReply).toHaveBeenCalledOnce();
    window.removeEventListener(QUICK_REPLY_EVENT, quickReply);
  });
});
