import ContentCopy from '@mui/icons-material/ContentCopy';
import { Alert, Button, Dialog, DialogActions, DialogContent, DialogTitle, Stack, TextField, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from './toast';

interface SecretDialogProps {
  secret: string;
  /** Prefix of the texts: `<texts>.title`, `.warning`, `.help`, `.copy`, `.copied`, `.done`. */
  texts: string;
  /** Prefix of the test ids: `<testId>-dialog`, `-value`, `-done`. */
  testId: string;
  onClose(): void;
}

/**
 * A secret the server generated (an integration's signing secret, a connection's
 * API token): shown in full, with a copy button, so the other side can be set up.
 */
export function SecretDialog({ secret, texts, testId, onClose }: SecretDialogProps) {
  const { t } = useTranslation();
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(secret);
      toastSuccess(t(`${texts}.copied`));
    } catch (error) {
      toastError(error);
    }
  };
  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm" data-testid={`${testId}-dialog`}>
      <DialogTitle>{t(`${texts}.title`)}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Alert severity="warning">{t(`${texts}.warning`)}</Alert>
          <TextField
            value={secret}
            fullWidth
            slotProps={{ htmlInput: { readOnly: true, 'data-testid': `${testId}-value`, 'aria-label': t(`${texts}.title`) }, input: { sx: { fontFamily: 'monospace' } } }}
            onFocus={(event) => event.target.select()}
          />
          <Typography variant="body2" color="text.secondary">
            {t(`${texts}.help`)}
          </Typography>
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button startIcon={<ContentCopy />} onClick={() => void copy()}>
          {t(`${texts}.copy`)}
        </Button>
        <Button variant="contained" onClick={onClose} data-testid={`${testId}-done`}>
          {t(`${texts}.done`)}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
