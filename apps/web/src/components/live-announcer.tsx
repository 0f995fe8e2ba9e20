import { Box } from '@mui/material';
import { createContext, useCallback, useContext, useEffect, useRef, useState, type ReactNode } from 'react';

/** Hidden from sight, not from screen readers (the skip link shows itself on focus with the same base). */
export const VISUALLY_HIDDEN = {
  position: 'absolute',
  width: '1px',
  height: '1px',
  p: 0,
  m: '-1px',
  overflow: 'hidden',
  clip: 'rect(0 0 0 0)',
  whiteSpace: 'nowrap',
  border: 0,
} as const;

/** The wait between emptying the region and writing the new text: a screen reader then reads a repeated text again. */
export const ANNOUNCE_DELAY_MS = 100;

const AnnounceContext = createContext<(text: string) => void>(() => undefined);

/**
 * One polite live region for the signed-in app: what happens out of sight (a customer's
 * new message, a new ticket waiting) is read out by screen readers without moving focus
 * or interrupting what they are reading.
 */
export function LiveAnnouncerProvider({ children }: { children: ReactNode }) {
  const [text, setText] = useState('');
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const announce = useCallback((next: string) => {
    if (timer.current) clearTimeout(timer.current);
    setText('');
    timer.current = setTimeout(() => {
      timer.current = null;
      setText(next);
    }, ANNOUNCE_DELAY_MS);
  }, []);
  useEffect(
    () => () => {
      if (timer.current) clearTimeout(timer.current);
    },
    [],
  );
  return (
    <AnnounceContext.Provider value={announce}>
      {children}
      <Box role="status" aria-live="polite" aria-atomic="true" sx={VISUALLY_HIDDEN} data-testid="live-region">
        {text}
      </Box>
    </AnnounceContext.Provider>
  );
}

/** `announce(text)`: the text is read out politely by screen readers. */
export function useAnnounce(): (text: string) => void {
  return useContext(AnnounceContext);
}
