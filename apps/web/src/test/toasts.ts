import { screen } from '@testing-library/react';

export interface ShownToast {
  text: string;
  variant: string;
}

/**
 * The toasts on screen (components/toast.tsx), with their variant (success, error, info).
 * `hidden`: also those MUI hides from the accessibility tree while a dialog is open.
 */
export function shownToasts({ hidden = false } = {}): ShownToast[] {
  return screen
    .queryAllByRole('alert', { hidden })
    .filter((alert) => alert.dataset.toast !== undefined)
    .map((alert) => ({ text: alert.textContent ?? '', variant: alert.dataset.toast ?? '' }));
}
