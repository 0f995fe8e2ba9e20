import { Alert, Box } from '@mui/material';
import { keyframes } from '@mui/material/styles';
import { useEffect, useRef, useState, type ReactNode } from 'react';

export type ToastVariant = 'success' | 'error' | 'info';
/** A toast as `toastError`, `toastSuccess` and `toastInfo` (toast.tsx) make it. */
export interface Toast {
  key: number;
  message: ReactNode;
  variant: ToastVariant;
  autoHideMs: number;
}

/** White text on these reads at 4.8:1 or more (WCAG AA) in both themes; MUI's filled alerts put dark text on dark red in the dark one. */
const BACKGROUND: Record<ToastVariant, string> = { error: '#d32f2f', success: '#2e7d32', info: '#0277bd' };
const enter = keyframes`from { opacity: 0; transform: translateY(8px); } to { opacity: 1; transform: none; }`;

/** The toasts on screen (`ToastHost` in toast.tsx): bottom right, the width of a phone's screen, the newest last. */
export default function ToastStack({ toasts, onDone }: { toasts: Toast[]; onDone: (key: number) => void }) {
  return (
    <Box
      sx={{
        position: 'fixed',
        zIndex: 'snackbar',
        bottom: { xs: 8, sm: 24 },
        right: { xs: 8, sm: 24 },
        left: { xs: 8, sm: 'auto' },
        maxWidth: { sm: 480 },
        display: 'flex',
        flexDirection: 'column',
        gap: 1,
      }}
    >
      {toasts.map((toast) => (
        <ToastItem key={toast.key} toast={toast} onDone={onDone} />
      ))}
    </Box>
  );
}

/** One toast: hides after its time, which stops while the pointer or the focus is on it. */
function ToastItem({ toast, onDone }: { toast: Toast; onDone: (key: number) => void }) {
  const [paused, setPaused] = useState(false);
  // The time left survives pauses: hovering a toast for a while does not restart it from the top.
  const left = useRef(toast.autoHideMs);
  useEffect(() => {
    if (paused) return;
    const started = Date.now();
    const timer = setTimeout(() => onDone(toast.key), left.current);
    return () => {
      clearTimeout(timer);
      left.current = Math.max(0, left.current - (Date.now() - started));
    };
  }, [paused, toast.key, onDone]);
  return (
    <Alert
      data-toast={toast.variant}
      severity={toast.variant}
      variant="filled"
      onMouseEnter={() => setPaused(true)}
      onMouseLeave={() => setPaused(false)}
      onFocus={() => setPaused(true)}
      onBlur={() => setPaused(false)}
      sx={{ bgcolor: BACKGROUND[toast.variant], color: '#fff', '& .MuiAlert-icon': { color: 'inherit' }, boxShadow: 6, animation: `${enter} 150ms ease-out`, '@media (prefers-reduced-motion: reduce)': { animation: 'none' } }}
    >
      {toast.message}
    </Alert>
  );
}
