import { CONNECTION_QR_SIZE } from '@atende/shared';
import { Box, CircularProgress } from '@mui/material';
import { useEffect, useState } from 'react';
import { toastError } from './toast';

/**
 * Draws a QR code value as a PNG, 256 px wide (spec: QR size 256) and narrower on a
 * small screen; the encoder loads only when a QR code is shown (bundle budget). Used
 * by the connection's pairing code and the Pix charge.
 */
export function QrCodeImage({ value, label, testId, errorCorrectionLevel = 'L' }: { value: string; label: string; testId: string; errorCorrectionLevel?: 'L' | 'M' }) {
  const [image, setImage] = useState<{ value: string; url: string } | null>(null);
  useEffect(() => {
    let cancelled = false;
    import('qrcode')
      .then((qrcode) => qrcode.toDataURL(value, { width: CONNECTION_QR_SIZE, margin: 1, errorCorrectionLevel }))
      .then((url) => {
        if (!cancelled) setImage({ value, url });
      })
      .catch((error: unknown) => {
        if (!cancelled) toastError(error);
      });
    return () => {
      cancelled = true;
    };
  }, [value, errorCorrectionLevel]);
  const current = image?.value === value ? image : null;
  return (
    <Box sx={{ width: CONNECTION_QR_SIZE, maxWidth: '100%', aspectRatio: '1', display: 'flex', alignItems: 'center', justifyContent: 'center', bgcolor: '#fff', borderRadius: 1 }}>
      {current ? (
        <Box component="img" src={current.url} alt={label} data-testid={testId} data-qr-value={current.value} sx={{ width: '100%', height: 'auto', display: 'block' }} />
      ) : (
        <CircularProgress size={32} aria-label={label} />
      )}
    </Box>
  );
}
