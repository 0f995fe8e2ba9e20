import { Button, Dialog, DialogActions, DialogContent, DialogTitle, useMediaQuery, useTheme } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { TwoFactorPanel } from './two-factor-panel';

/** The profile menu's "Two-factor sign-in" (loaded when opened: it brings the QR encoder with it). */
export default function TwoFactorDialog({ onClose }: { onClose(): void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  return (
    <Dialog open onClose={onClose} maxWidth="sm" fullWidth fullScreen={phone} aria-labelledby="two-factor-title">
      <DialogTitle id="two-factor-title">{t('twoFactor.title')}</DialogTitle>
      <DialogContent>
        <TwoFactorPanel />
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="two-factor-close">
          {t('common.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
