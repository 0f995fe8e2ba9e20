import type { ChipProps } from '@mui/material';

/** The session buttons of the connections table (spec part 2 §2.2). */
export type SessionButton = 'qrcode' | 'retry' | 'newQr' | 'disconnect' | 'connecting';

/**
 * Which session buttons a status offers: a QR code waiting to be scanned opens
 * the QR dialog; a disconnected session can be retried or paired again; a live
 * (or trying) one can be disconnected; one still opening shows a disabled
 * "Connecting" button. An unknown status offers nothing.
 */
export function sessionButtonsFor(status: string): SessionButton[] {
  switch (status) {
    case 'qrcode':
      return ['qrcode'];
    case 'DISCONNECTED':
      return ['retry', 'newQr'];
    case 'CONNECTED':
    case 'PAIRING':
    case 'TIMEOUT':
      return ['disconnect'];
    case 'OPENING':
      return ['connecting'];
    default:
      return [];
  }
}

/** How alarming each of the six statuses (DECISIONS.md §5) is. */
export const STATUS_COLOR: Record<string, ChipProps['color']> = {
  CONNECTED: 'success',
  DISCONNECTED: 'error',
  TIMEOUT: 'error',
  qrcode: 'warning',
  PAIRING: 'warning',
  OPENING: 'info',
};
