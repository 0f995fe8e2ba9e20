import type { PixCheckoutView } from '@atende/shared';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { QrCodeImage } from '../../components/qr-code-image';
import { toastError, toastSuccess } from '../../components/toast';
import { formatDateTime, formatReais } from '../../i18n';


/**
 * The Pix charge of an invoice (spec part 2 §2.17, §3 "Pix result"): the QR code,
 * the copy-and-paste code, the amount as the server charged it (`valor.original`)
 * and until when the charge is valid. A charge at the local test PSP can be paid
 * from here; the confirmation comes back as the `payment` event either way.
 */
export function PixPayment({ charge }: { charge: PixCheckoutView }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [paying, setPaying] = useState(false);
  const code = charge.qrcode.qrcode;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      toastSuccess(t('invoices.pix.copied'));
    } catch {
      toastError(new Error(t('invoices.pix.copyFailed')));
    }
  };

  const payAtTestBank = async () => {
    setPaying(true);
    try {
      await api.post('/fake-psp/pay', { pixCopiaECola: code });
    } catch (error) {
      toastError(error);
    } finally {
      setPaying(false);
    }
  };

  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="pix-payment">
      {charge.sandbox ? (
        <Alert severity="warning" sx={{ alignSelf: 'stretch' }} data-testid="pix-sandbox-note">
          {t('invoices.pix.sandbox')}
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        {t('invoices.pix.instructions')}
      </Typography>
      <QrCodeImage testId="pix-qr-image" errorCorrectionLevel="M" value={code} label={t('invoices.pix.image')} />
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="caption" color="text.secondary">
          {t('invoices.pix.amount')}
        </Typography>
        <Typography variant="h5" component="p" data-testid="pix-amount">
          {formatReais(charge.valor.original)}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="pix-expires">
          {t('invoices.pix.expiresAt', { date: formatDateTime(charge.expiresAt) })}
        </Typography>
      </Box>
      <Box sx={{ alignSelf: 'stretch' }}>
        <Typography variant="caption" color="text.secondary" component="p" id="pix-copy-paste-label">
          {t('invoices.pix.copyPaste')}
        </Typography>
        <Box
          aria-labelledby="pix-copy-paste-label"
          data-testid="pix-copy-paste"
          sx={{ fontFamily: 'monospace', fontSize: 13, p: 1, borderRadius: 1, bgcolor: 'action.hover', wordBreak: 'break-all', userSelect: 'all', maxHeight: 120, overflowY: 'auto' }}
        >
          {code}
        </Box>
      </Box>
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignSelf: 'stretch', justifyContent: 'center' }}>
        <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()} data-testid="pix-copy">
          {t('invoices.pix.copy')}
        </Button>
        {charge.sandbox ? (
          <Button variant="contained" color="secondary" disabled={paying} onClick={() => void payAtTestBank()} data-testid="pix-sandbox-pay">
            {t('invoices.pix.sandboxPay')}
          </Button>
        ) : null}
      </Stack>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center' }} role="status">
        <CircularProgress size={16} />
        <Typography variant="body2" color="text.secondary">
          {t('invoices.pix.waiting')}
        </Typography>
      </Stack>
    </Stack>
  );
}
