import { useEffect, useRef } from 'react';

/** Marks the element a shortcut acts on: `data-shortcut="accept"` is what `a` clicks. */
export const SHORTCUT_ATTRIBUTE = 'data-shortcut';
type ShortcutTarget = 'accept' | 'close' | 'composer';
/** Sent on `window` by `q`: the open composer focuses itself and starts a `/` quick reply. */
export const QUICK_REPLY_EVENT = 'atende:quick-reply';

type TicketShortcut = 'next' | 'previous' | 'accept' | 'close' | 'composer' | 'quickReply' | 'help';

/** Escape in a text field (outside a dialog or menu) leaves it, so the one-letter shortcuts work again. */
function leavesTextField(event: KeyboardEvent): HTMLElement | null {
  if (event.key !== 'Escape' || event.defaultPrevented || !(event.target instanceof HTMLElement)) return null;
  const target = event.target;
  return isTextField(target) && !target.closest('[role="dialog"], [role="menu"], [role="listbox"]') ? target : null;
}

/** The shortcut a key press means, or null (typing in a field, a modifier held, an open dialog or menu). */
function ticketShortcut(event: KeyboardEvent): TicketShortcut | null {
  if (event.defaultPrevented || event.isComposing || event.ctrlKey || event.metaKey) return null;
  const target = event.target instanceof Element ? event.target : null;
  if (target && (isTextField(target) || target.closest('[role="dialog"], [role="menu"], [role="listbox"]'))) return null;
  if (event.altKey) {
    if (event.key === 'ArrowDown') return 'next';
    if (event.key === 'ArrowUp') return 'previous';
    return null;
  }
  switch (event.key) {
    case 'j':
      return 'next';
    case 'k':
      return 'previous';
    case 'a':
      return 'accept';
    case 'c':
      return 'close';
    case 'r':
    case '/':
      return 'composer';
    case 'q':
      return 'quickReply';
    case '?':
      return 'help';
    default:
      return null;
  }
}

function isTextField(element: Element): boolean {
  if (element instanceof HTMLElement && element.isContentEditable) return true;
  if (element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) return true;
  if (element instanceof HTMLInputElement) return !['checkbox', 'radio', 'button', 'submit', 'reset', 'range', 'color', 'file'].includes(element.type);
  return element.closest('[role="textbox"], [role="combobox"], [role="searchbox"]') !== null;
}

/** The ticket `step` away from the selected one among those that open (pending tickets are accepted, never opened). */
export function neighbourTicket<T extends { uuid: string; status: string }>(tickets: readonly T[], selectedUuid: string | undefined, step: 1 | -1): T | null {
  const openable = tickets.filter((ticket) => ticket.status !== 'pending');
  if (openable.length === 0) return null;
  const index = openable.findIndex((ticket) => ticket.uuid === selectedUuid);
  if (index === -1) return step === 1 ? openable[0]! : openable[openable.length - 1]!;
  return openable[index + step] ?? null;
}

function clickTarget(name: ShortcutTarget): boolean {
  const element = document.querySelector<HTMLElement>(`[${SHORTCUT_ATTRIBUTE}="${name}"]`);
  if (!element || (element instanceof HTMLButtonElement && element.disabled)) return false;
  if (name === 'composer') element.focus();
  else element.click();
  return true;
}

export interface TicketShortcutsOptions<T> {
  tickets: readonly T[];
  selectedUuid: string | undefined;
  onOpen(ticket: T): void;
  onHelp(): void;
}

/**
 * The ticket screen's keyboard shortcuts (docs/architecture.md, "Keyboard shortcuts"): j/k or
 * Alt+ArrowDown/Up move through the current list, a accepts and c closes the ticket on screen
 * (its header's buttons, so the same flow), r or / focus the composer, q starts a quick reply, ? helps.
 * They are ignored while typing in a field; Escape leaves the field.
 */
export function useTicketShortcuts<T extends { uuid: string; status: string }>(options: TicketShortcutsOptions<T>): void {
  const latest = useRef(options);
  useEffect(() => {
    latest.current = options;
  });
  useEffect(() => {
    const onKeyDown = (event: KeyboardEvent) => {
      leavesTextField(event)?.blur();
      const shortcut = ticketShortcut(event);
      if (!shortcut) return;
      const { tickets, selectedUuid, onOpen, onHelp } = latest.current;
      let handled = false;
      if (shortcut === 'next' || shortcut === 'previous') {
        const ticket = neighbourTicket(tickets, selectedUuid, shortcut === 'next' ? 1 : -1);
        if (ticket) onOpen(ticket);
        handled = ticket !== null;
      } else if (shortcut === 'accept' || shortcut === 'close' || shortcut === 'composer') {
        handled = clickTarget(shortcut);
      } else if (shortcut === 'quickReply') {
        handled = document.querySelector(`[${SHORTCUT_ATTRIBUTE}="composer"]`) !== null;
        if (handled) window.dispatchEvent(new Event(QUICK_REPLY_EVENT));
      } else {
        onHelp();
        handled = true;
      }
      if (handled) event.preventDefault();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, []);
}
