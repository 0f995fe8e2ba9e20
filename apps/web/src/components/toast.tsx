import { ERROR_STATUS } from '@atende/shared';
import i18next from 'i18next';
import { enqueueSnackbar, type SnackbarMessage } from 'notistack';
import { ApiError } from '../api/http-client';

/** The translated text of an API error's ERR_ code; null when the error has none we know. */
export function knownErrorText(error: unknown): string | null {
  const code = error instanceof ApiError ? error.code : undefined;
  return code && Object.hasOwn(ERROR_STATUS, code) && i18next.exists(`errors.${code}`) ? i18next.t(`errors.${code}`) : null;
}

/** The error's text, with the server's request id under it, small ("Ref: ..."), for the user to quote to support. */
function withReference(text: string, error: unknown): SnackbarMessage {
  const requestId = error instanceof ApiError ? error.requestId : undefined;
  if (!requestId) return text;
  return (
    <span>
      {text}
      <small style={{ display: 'block', opacity: 0.8, fontSize: '0.75em' }}>{i18next.t('common.errorReference', { id: requestId })}</small>
    </span>
  );
}

/** Error display (spec part 1 §8): a translated ERR_ code for 2 s, otherwise the raw text for 3 s. */
export function toastError(error: unknown): void {
  const known = knownErrorText(error);
  if (known) {
    enqueueSnackbar(withReference(known, error), { variant: 'error', autoHideDuration: 2000 });
    return;
  }
  const text = error instanceof Error ? error.message : String(error);
  enqueueSnackbar(withReference(text, error), { variant: 'error', autoHideDuration: 3000 });
}

export function toastSuccess(text: string): void {
  enqueueSnackbar(text, { variant: 'success', autoHideDuration: 3000 });
}

export function toastInfo(text: string): void {
  enqueueSnackbar(text, { variant: 'info', autoHideDuration: 3000 });
}
