import ContentCopy from '@mui/icons-material/ContentCopy';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../components/toast';

/**
 * The signing secret the server generated for a new n8n or webhook integration:
 * shown in full this once, so the receiving side can check the signatures.
 */
export function IntegrationSecretDialog({ secret, onClose }: { secret: string; onClose(): void }) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toastSuccess(t('integrations.secret.copied'));
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid="integration-secret-dialog">
      <DialogTitle>{t('integrations.secret.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="warning">{t('integrations.secret.warning')}</Alert>
          <TextField
            value={secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': 'integration-secret-value', 'aria-label': t('integrations.secret.title') }, input: { sx: { fontFamily: 'monospace' } } }}
            onFocus={(event) => event.target.select()}
          />
          <Typography variant="body2" color="text.secondary">
            {t('integrations.secret.help')}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t('integrations.secret.copy')}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid="integration-secret-done">
          {t('integrations.secret.done')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
