import {
  cloneElement,
  type ComponentType,
  useEffect,
  useId,
  useState,
  type FocusEvent,
  type MouseEvent,
  type ReactElement,
  type ReactNode,
  type TouchEvent,
} from 'react';
import type { TooltipPopupProps } from './tooltip-popup';

/** As MUI's Tooltip: shown 100 ms after the pointer comes, after a 700 ms press on a touch screen, for 1.5 s. */
const ENTER_DELAY_MS = 100;
const TOUCH_DELAY_MS = 700;
const TOUCH_SHOWN_MS = 1500;
/** A touch is followed by emulated mouse events: they do not open the tooltip again. */
const TOUCH_MOUSE_GRACE_MS = 1000;

type ChildProps = {
  'aria-label'?: string;
  'aria-labelledby'?: string;
  'aria-describedby'?: string;
  title?: string;
  onMouseOver?(event: MouseEvent<HTMLElement>): void;
  onMouseLeave?(event: MouseEvent<HTMLElement>): void;
  onFocus?(event: FocusEvent<HTMLElement>): void;
  onBlur?(event: FocusEvent<HTMLElement>): void;
  onTouchStart?(event: TouchEvent<HTMLElement>): void;
  onTouchEnd?(event: TouchEvent<HTMLElement>): void;
};

export interface TooltipProps {
  title: ReactNode;
  /** One element that takes a ref and these events (a button, or a span around a disabled one). */
  children: ReactElement;
  placement?: 'bottom' | 'top' | 'left' | 'right';
  /** The title describes the child (`aria-describedby`) rather than names it (`aria-label`). */
  describeChild?: boolean;
}

let Popup: ComponentType<TooltipPopupProps> | null = null;
let popupLoading: Promise<void> | null = null;

/**
 * The popup's code (MUI's Popper and popper.js) loads when a first tooltip is about to show (the
 * pointer, a focus or a press on its child), not with the page: no first screen needs it to paint.
 */
export function loadTooltipPopup(): Promise<void> {
  popupLoading ??= import('./tooltip-popup').then((module) => {
    Popup = module.TooltipPopup;
  });
  return popupLoading;
}

/** When the tooltip shows and hides, from the child's events: its timers live here, outside React's state. */
function tooltipTimer(setAnchor: (anchor: HTMLElement | null) => void) {
  let timer: ReturnType<typeof setTimeout> | undefined;
  let lastTouch = 0;
  const later = (delay: number, then: () => void) => {
    clearTimeout(timer);
    timer = setTimeout(then, delay);
  };
  const hide = () => {
    clearTimeout(timer);
    setAnchor(null);
  };
  return {
    hide,
    show: (target: HTMLElement) => {
      clearTimeout(timer);
      setAnchor(target);
    },
    pointerOver(target: HTMLElement) {
      if (Date.now() - lastTouch >= TOUCH_MOUSE_GRACE_MS) later(ENTER_DELAY_MS, () => setAnchor(target));
    },
    touchStart(target: HTMLElement) {
      lastTouch = Date.now();
      later(TOUCH_DELAY_MS, () => {
        setAnchor(target);
        later(TOUCH_SHOWN_MS, hide);
      });
    },
    /** A tap shorter than the press shows nothing. */
    touchEnd(shown: boolean) {
      lastTouch = Date.now();
      if (!shown) clearTimeout(timer);
    },
    stop: () => clearTimeout(timer),
  };
}

/**
 * The app's tooltip, shown and named as MUI's Tooltip is (hover, keyboard focus, a long press;
 * Escape hides it) but costing nothing until shown. MUI's runs some twenty hooks per instance and,
 * when it mounts, learns its child's node from a ref: a synchronous re-render at the end of the
 * commit, which also runs every pending effect in the same task. A ticket row has up to four: on
 * a phone, each list of them was a long task of the page's first seconds (bench/README.md,
 * Lighthouse). Here the child keeps its place in the tree whether the tooltip shows or not (its
 * state and focus survive), and the popup is a Popper (its root is the `role="tooltip"` element)
 * rendered only while shown, from a module loaded the first time one is about to show.
 */
export function Tooltip({ title, children, placement = 'bottom', describeChild = false }: TooltipProps) {
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const id = useId();
  const empty = title === '' || title === null || title === undefined || title === false;
  const [timing] = useState(() => tooltipTimer(setAnchor));
  const open = anchor !== null;
  // Shown before its code has arrived (a keyboard focus, a fast pointer): rendered once it has.
  const [, setPopupLoaded] = useState(Popup !== null);
  useEffect(() => {
    if (open && !Popup) void loadTooltipPopup().then(() => setPopupLoaded(true));
  }, [open]);
  useEffect(() => timing.stop, [timing]);
  useEffect(() => {
    if (!open) return;
    const onKeyDown = (event: KeyboardEvent) => {
      if (event.key === 'Escape') timing.hide();
    };
    document.addEventListener('keydown', onKeyDown);
    return () => document.removeEventListener('keydown', onKeyDown);
  }, [open, timing]);

  const child = children as ReactElement<ChildProps>;
  const own = child.props;
  const text = typeof title === 'string' ? title : undefined;
  const named: ChildProps = describeChild
    ? { title: open ? undefined : (own.title ?? text), 'aria-describedby': open ? id : own['aria-describedby'] }
    : { 'aria-label': own['aria-label'] ?? text, 'aria-labelledby': open && !text ? id : own['aria-labelledby'] };
  const onMouseOver = (event: MouseEvent<HTMLElement>) => {
    own.onMouseOver?.(event);
    if (empty) return;
    void loadTooltipPopup();
    timing.pointerOver(event.currentTarget);
  };
  const onMouseLeave = (event: MouseEvent<HTMLElement>) => {
    own.onMouseLeave?.(event);
    timing.hide();
  };
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    own.onFocus?.(event);
    // A click's focus does not show it, a keyboard's does.
    if (!empty && event.currentTarget.matches(':focus-visible')) {
      void loadTooltipPopup();
      timing.show(event.currentTarget);
    }
  };
  const onBlur = (event: FocusEvent<HTMLElement>) => {
    own.onBlur?.(event);
    timing.hide();
  };
  const onTouchStart = (event: TouchEvent<HTMLElement>) => {
    own.onTouchStart?.(event);
    if (empty) return;
    void loadTooltipPopup();
    timing.touchStart(event.currentTarget);
  };
  const onTouchEnd = (event: TouchEvent<HTMLElement>) => {
    own.onTouchEnd?.(event);
    timing.touchEnd(open);
  };
  return (
    <>
      {cloneElement(child, { ...named, onMouseOver, onMouseLeave, onFocus, onBlur, onTouchStart, onTouchEnd })}
      {open && Popup ? <Popup id={id} anchor={anchor} placement={placement} title={title} /> : null}
    </>
  );
}
