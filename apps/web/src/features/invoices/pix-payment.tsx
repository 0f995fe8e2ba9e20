import type { PixCheckoutView } from '@atende/shared';
import ContentCopy from '@mui/icons-material/ContentCopy';
import OpenInNew from '@mui/icons-material/OpenInNew';
import { Alert, Box, Button, CircularProgress, Link, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { QrCodeImage } from '../../components/qr-code-image';
import { toastError, toastSuccess } from '../../components/toast';
import { formatDateTime, formatReais } from '../../i18n';

/** The payer's bank of a local fake PSP: the Efí-shaped fake reads the Pix code, the fake Asaas the payment id. */
function payAtFake(api: { post(url: string, body: unknown): Promise<unknown> }, charge: PixCheckoutView) {
  return charge.provider === 'asaas' ? api.post('/fake-asaas/pay', { id: charge.txid }) : api.post('/fake-psp/pay', { pixCopiaECola: charge.qrcode.qrcode });
}

/** The test bank's button of a sandbox charge: pays it at the local fake, a failure toasted. */
function useTestBank(charge: PixCheckoutView) {
  const { api } = useSession();
  const [paying, setPaying] = useState(false);
  const payAtTestBank = async () => {
    setPaying(true);
    try {
      await payAtFake(api, charge);
    } catch (error) {
      toastError(error);
    } finally {
      setPaying(false);
    }
  };
  return { paying, payAtTestBank };
}

function useCopy(code: string) {
  const { t } = useTranslation();
  return async () => {
    try {
      await navigator.clipboard.writeText(code);
      toastSuccess(t('invoices.pix.copied'));
    } catch {
      toastError(new Error(t('invoices.pix.copyFailed')));
    }
  };
}

/**
 * A boleto of an invoice (Asaas): the digitable line to copy into the bank's app, the
 * PDF at the provider, the amount and due date; the confirmation comes back as the
 * `payment` event (a boleto is cleared within a working day or two).
 */
export function BoletoPayment({ charge }: { charge: PixCheckoutView }) {
  const { t } = useTranslation();
  const line = charge.boleto?.line ?? '';
  const copy = useCopy(line);
  const { paying, payAtTestBank } = useTestBank(charge);
  return (
    <Stack spacing={2} sx={{ alignItems: 'center' }} data-testid="boleto-payment">
      {charge.sandbox ? (
        <Alert severity="warning" sx={{ alignSelf: 'stretch' }} data-testid="pix-sandbox-note">
          {t('invoices.pix.sandbox')}
        </Alert>
      ) : null}
      <Typography variant="body2" color="text.secondary" sx={{ textAlign: 'center' }}>
        {t('invoices.boleto.instructions')}
      </Typography>
      <Box sx={{ textAlign: 'center' }}>
        <Typography variant="caption" color="text.secondary">
          {t('invoices.pix.amount')}
        </Typography>
        <Typography variant="h5" component="p" data-testid="boleto-amount">
          {formatReais(charge.valor.original)}
        </Typography>
        <Typography variant="body2" color="text.secondary" data-testid="boleto-due">
          {t('invoices.boleto.dueAt', { date: formatDateTime(charge.expiresAt) })}
        </Typography>
      </Box>
      <Box sx={{ alignSelf: 'stretch' }}>
        <Typography variant="caption" color="text.secondary" component="p" id="boleto-line-label">
          {t('invoices.boleto.line')}
        </Typography>
        <Box
          aria-labelledby="boleto-line-label"
          data-testid="boleto-line"
          sx={{ fontFamily: 'monospace', fontSize: 13, p: 1, borderRadius: 1, bgcolor: 'action.hover', wordBreak: 'break-all', userSelect: 'all' }}
        >
          {line}
        </Box>
      </Box>
      {/* Three buttons with long labels: one under the other at every width. */}
      <Stack direction="column" spacing={1} sx={{ alignSelf: 'stretch' }}>
        <Button variant="outlined" startIcon={<ContentCopy />} onClick={() => void copy()} data-testid="boleto-copy">
          {t('invoices.boleto.copy')}
        </Button>
        {charge.boleto?.url ? (
          <Button component={Link} href={charge.boleto.url} target="_blank" rel="noopener noreferrer" variant="outlined" startIcon={<OpenInNew />} data-testid="boleto-pdf">
            {t('invoices.boleto.pdf')}
          </Button>
        ) : null}
        {charge.sandbox ? (
          <Button variant="contained" color="secondary" disabled={paying} onClick={() => void payAtTestBank()} data-testid="boleto-sandbox-pay">
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

/**
 * The Pix charge of an invoice (spec part 2 §2.17, §3 "Pix result"): the QR code,
 * the copy-and-paste code, the amount as the server charged it (`valor.original`)
 * and until when the charge is valid. A charge at the local test PSP can be paid
 * from here; the confirmation comes back as the `payment` event either way.
 */
export function PixPayment({ charge }: { charge: PixCheckoutView }) {
  const { t } = useTranslation();
  const code = charge.qrcode.qrcode;

  const copy = useCopy(code);
  const { paying, payAtTestBank } = useTestBank(charge);

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
