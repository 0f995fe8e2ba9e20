import { CONNECTION_QR_SIZE, type PresentedConnectionDetail } from '@atende/shared';
import { Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { QrCodeImage } from '../../components/qr-code-image';
import { toastError } from '../../components/toast';
import { connectionSessionKey } from './connections-queries';

/**
 * The QR dialog (spec part 2 §2.2): `GET /whatsapp/:id` (with session detail)
 * gives the code, `company-{id}-whatsappSession` replaces it live (through
 * `useConnectionEvents`, which the connections page runs), and the
 * dialog closes by itself once the code empties (the phone paired, or the
 * session stopped waiting).
 */
export function QrCodeDialog({ connection, onClose }: { connection: Pick<PresentedConnectionDetail, 'id' | 'name'>; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const session = useQuery({
    queryKey: connectionSessionKey(connection.id),
    queryFn: () => api.get<PresentedConnectionDetail>(`/whatsapp/${connection.id}`),
    // The socket keeps it current; a refetch could only bring back an older code.
    staleTime: Infinity,
    gcTime: 0,
  });
  const qrcode = session.data?.qrcode ?? '';
  const shown = useRef(false);

  useEffect(() => {
    if (session.error) toastError(session.error);
  }, [session.error]);

  useEffect(() => {
    if (qrcode) shown.current = true;
    // A code was on screen and is gone: paired (or given up); either way there is nothing left to scan.
    else if (shown.current) onClose();
  }, [qrcode, onClose]);

  return (
    <Dialog open onClose={onClose} maxWidth="sm" data-testid="qr-dialog">
      <DialogTitle>{t('connections.qrDialog.title', { name: connection.name })}</DialogTitle>
      <DialogContent>
        <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, gap: 3, alignItems: 'center' }}>
          <Typography variant="body2" sx={{ maxWidth: 280 }} data-testid="qr-how-to">
            {t('connections.qrDialog.howTo')}
          </Typography>
          {qrcode ? (
            <QrCodeImage testId="qr-image" value={qrcode} label={t('connections.qrDialog.image')} />
          ) : (
            <Box role="status" sx={{ width: CONNECTION_QR_SIZE, height: CONNECTION_QR_SIZE, display: 'flex', flexDirection: 'column', gap: 1, alignItems: 'center', justifyContent: 'center' }} data-testid="qr-waiting">
              <CircularProgress size={32} />
              <Typography variant="body2" color="text.secondary">
                {t('connections.qrDialog.waiting')}
              </Typography>
            </Box>
          )}
        </Box>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="qr-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
