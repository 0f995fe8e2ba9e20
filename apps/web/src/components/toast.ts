import { ERROR_STATUS } from '@atende/shared';
import i18next from 'i18next';
import { enqueueSnackbar } from 'notistack';
import { ApiError } from '../api/http-client';

/** The translated text of an API error's ERR_ code; null when the error has none we know. */
export function knownErrorText(error: unknown): string | null {
  const code = error instanceof ApiError ? error.code : undefined;
  return code && Object.hasOwn(ERROR_STATUS, code) && i18next.exists(`errors.${code}`) ? i18next.t(`errors.${code}`) : null;
}

/** Error display (spec part 1 §8): a translated ERR_ code for 2 s, otherwise the raw text for 3 s. */
export function toastError(error: unknown): void {
  const known = knownErrorText(error);
  if (known) {
    enqueueSnackbar(known, { variant: 'error', autoHideDuration: 2000 });
    return;
  }
  const text = error instanceof Error ? error.message : String(error);
  enqueueSnackbar(text, { variant: 'error', autoHideDuration: 3000 });
}

export function toastSuccess(text: string): void {
  enqueueSnackbar(text, { variant: 'success', autoHideDuration: 3000 });
}

export function toastInfo(text: string): void {
  enqueueSnackbar(text, { variant: 'info', autoHideDuration: 3000 });
}
