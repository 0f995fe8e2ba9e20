import { Box, ButtonBase } from '@mui/material';
import type { KeyboardEvent, ReactNode } from 'react';

export interface TabStripItem<T extends string> {
  value: T;
  label: ReactNode;
  icon?: ReactNode;
  testId?: string;
}

const KEY_STEPS: Record<string, (index: number, count: number) => number> = {
  ArrowRight: (index, count) => (index + 1) % count,
  ArrowLeft: (index, count) => (index - 1 + count) % count,
  Home: () => 0,
  End: (_, count) => count - 1,
};

/** Arrow keys, Home and End move the focus along the tabs; Enter or Space selects the focused one. */
function moveFocus(event: KeyboardEvent<HTMLElement>): void {
  const step = KEY_STEPS[event.key];
  if (!step) return;
  const tabs = Array.from(event.currentTarget.querySelectorAll<HTMLElement>('[role="tab"]'));
  const index = tabs.findIndex((tab) => tab === document.activeElement);
  if (index < 0) return;
  event.preventDefault();
  tabs[step(index, tabs.length)]?.focus();
}

/**
 * Tabs across the whole width, as MUI's `<Tabs variant="fullWidth">` look and answer the keyboard
 * (WAI-ARIA tabs: one tab in the Tab order, arrows between them). MUI's measure their tabs after
 * every render to place the sliding indicator (a forced layout of the page) and render again to
 * move it: on the tickets page, where three strips re-render with each answer of the lists, that
 * was a good part of the long tasks of its first seconds on a phone. Here the selected tab draws
 * its own underline.
 */
export function TabStrip<T extends string>({
  value,
  onChange,
  items,
  height,
  iconPosition = 'top',
  label,
  attributes,
}: {
  value: T;
  onChange(value: T): void;
  items: TabStripItem<T>[];
  height: number;
  iconPosition?: 'top' | 'start';
  /** The strip's accessible name, when the page does not otherwise say what the tabs choose. */
  label?: string;
  /** Extra attributes of the tab list (a data attribute other code finds it by). */
  attributes?: Record<`data-${string}`, string>;
}) {
  return (
    <Box role="tablist" aria-label={label} onKeyDown={moveFocus} sx={{ display: 'flex', minHeight: height }} {...attributes}>
      {items.map((item) => {
        const selected = item.value === value;
        return (
          <ButtonBase
            key={item.value}
            role="tab"
            aria-selected={selected}
            tabIndex={selected ? 0 : -1}
            focusRipple
            data-testid={item.testId}
            onClick={() => {
              if (!selected) onChange(item.value);
            }}
            sx={(theme) => ({
              ...theme.typography.button,
              flex: 1,
              minWidth: 0,
              minHeight: height,
              px: 2,
              py: iconPosition === 'top' ? 0.5 : 0,
              gap: iconPosition === 'top' ? 0.25 : 1,
              flexDirection: iconPosition === 'top' ? 'column' : 'row',
              color: selected ? theme.palette.primary.main : theme.palette.text.secondary,
              boxShadow: selected ? `inset 0 -2px 0 ${theme.palette.primary.main}` : 'none',
              transition: theme.transitions.create(['color', 'box-shadow'], { duration: theme.transitions.duration.shorter }),
            })}
          >
            {item.icon}
            {item.label}
          </ButtonBase>
        );
      })}
    </Box>
  );
}
