import { ERROR_STATUS } from '@atende/shared';
import i18next from 'i18next';
import { useCallback, useEffect, useState, type ReactNode } from 'react';
import { ApiError } from '../api/http-client';
import type { Toast, ToastVariant } from './toast-stack';
import type ToastStackComponent from './toast-stack';
import { whenIdle } from './when-idle';

/** At most this many toasts at once: a new one pushes the oldest out. */
const MAX_TOASTS = 3;
/**
 * The toasts' look (MUI alerts) loads apart: the first screen does not show one, and the entry
 * stays without the alert's icons.
 */
let ToastStack: typeof ToastStackComponent | null = null;
/** The look loads when the browser is next idle, within this delay: a toast that says the network is gone does not wait for the network. */
const STACK_WITHIN_MS = 3000;

/** Loads the toasts' look; once loaded, toasts render at once (the web tests load it up front). */
export async function loadToastStack(): Promise<void> {
  ToastStack = (await import('./toast-stack')).default;
}

/** The mounted host's way in (one host: the app's root, or a test's); toasts with no host mounted are dropped. */
let deliver: ((toast: Toast) => void) | null = null;
let nextKey = 1;

function show(message: ReactNode, variant: ToastVariant, autoHideMs: number): void {
  deliver?.({ key: nextKey++, message, variant, autoHideMs });
}

/**
 * The app's toasts (spec part 1 §8), bottom right (the width of a phone's screen), each hiding
 * after its time unless the pointer or the focus is on it. Ours rather than a library's: the
 * one we had (notistack) made its styles when it loaded, a task of its own on a phone's first
 * screen; these are MUI alerts the first screen already loads. Wraps `children` for tests.
 */
export function ToastHost({ children }: { children?: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const [, setStackLoaded] = useState(false);
  // Waiting toasts ask for the look; a load that failed (the network is gone) is tried again with the next toast.
  const waiting = ToastStack ? 0 : toasts.length;
  useEffect(() => {
    if (waiting === 0) return;
    let mounted = true;
    loadToastStack().then(
      () => mounted && setStackLoaded(true),
      () => undefined,
    );
    return () => {
      mounted = false;
    };
  }, [waiting]);
  useEffect(() => {
    const own = (toast: Toast) => setToasts((shown) => [...shown, toast].slice(-MAX_TOASTS));
    deliver = own;
    const cancel = whenIdle(() => void loadToastStack().catch(() => undefined), STACK_WITHIN_MS);
    return () => {
      cancel();
      if (deliver === own) deliver = null;
    };
  }, []);
  const dismiss = useCallback((key: number) => setToasts((shown) => shown.filter((toast) => toast.key !== key)), []);
  return (
    <>
      {children}
      {toasts.length > 0 && ToastStack && <ToastStack toasts={toasts} onDone={dismiss} />}
    </>
  );
}

/** The translated text of an API error's ERR_ code; null when the error has none we know. */
export function knownErrorText(error: unknown): string | null {
  const code = error instanceof ApiError ? error.code : undefined;
  return code && Object.hasOwn(ERROR_STATUS, code) && i18next.exists(`errors.${code}`) ? i18next.t(`errors.${code}`) : null;
}

/** The error's text, with the server's request id under it, small ("Ref: ..."), for the user to quote to support. */
function withReference(text: string, error: unknown): ReactNode {
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  if (!requestId) return text;
  return (
    <span>
      {text}
      <small style={{ display: 'block', fontSize: '0.75em' }}>{i18next.t('common.errorReference', { id: requestId })}</small>
    </span>
  );
}

/** Error display (spec part 1 §8): a translated ERR_ code for 2 s, otherwise the raw text for 3 s. */
export function toastError(error: unknown): void {
  const known = knownErrorText(error);
  if (known) {
    show(withReference(known, error), 'error', 2000);
    return;
  }
  const text = error instanceof Error ? error.message : String(error);
  show(withReference(text, error), 'error', 3000);
}

export function toastSuccess(text: string): void {
  show(text, 'success', 3000);
}

export function toastInfo(text: string): void {
  show(text, 'info', 3000);
}
