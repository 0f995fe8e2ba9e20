import { Button, CircularProgress, DialogActions } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface FormDialogActionsProps {
  /** While the form is being sent: both buttons are off and the submit button spins. */
  saving: boolean;
  onCancel(): void;
  saveTestId: string;
  cancelTestId?: string;
  /** The submit button's text; "Salvar" unless given. */
  saveLabel?: string;
  /** Submit is off for another reason too (the record is still loading, a choice is missing). */
  saveDisabled?: boolean;
}

/** The foot of a form dialog: cancel, and the submit button, which shows a spinner while the form is sent. */
export function FormDialogActions({ saving, onCancel, saveTestId, cancelTestId, saveLabel, saveDisabled = false }: FormDialogActionsProps) {
  const { t } = useTranslation();
  return (
    <DialogActions>
      <Button onClick={onCancel} disabled={saving} data-testid={cancelTestId}>
        {t('common.cancel')}
      </Button>
      <Button type="submit" variant="contained" disabled={saveDisabled || saving} data-testid={saveTestId}>
        {saving ? <CircularProgress size={22} aria-label={t('common.loading')} /> : (saveLabel ?? t('common.save'))}
      </Button>
    </DialogActions>
  );
}
