import { screen } from '@testing-library/react';

export interface ShownToast {
  text: string;
  variant: string;
}

/** The toasts on screen (notistack's alerts), with their variant (success, error, info). */
export function shownToasts(): ShownToast[] {
  return screen
    .queryAllByRole('alert')
    .filter((alert) => alert.classList.contains('notistack-MuiContent'))
    .map((alert) => ({ text: alert.textContent ?? '', variant: /notistack-MuiContent-(\w+)/.exec(alert.className)?.[1] ?? '' }));
}
