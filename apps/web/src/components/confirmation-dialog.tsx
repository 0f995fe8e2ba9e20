import { Button, Dialog, DialogActions, DialogContent, DialogContentText, DialogTitle } from '@mui/material';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** A yes/no question before something that cannot be undone (delete a message, a note, a contact). */
export function ConfirmationDialog({
  open,
  title,
  children,
  onConfirm,
  onClose,
}: {
  open: boolean;
  title: string;
  children?: ReactNode;
  onConfirm(): void;
  onClose(): void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog open={open} onClose={onClose} maxWidth="xs" fullWidth>
      <DialogTitle>{title}</DialogTitle>
      {children ? (
        <DialogContent>
          <DialogContentText component="div">{children}</DialogContentText>
        </DialogContent>
      ) : null}
      <DialogActions>
        <Button onClick={onClose} data-testid="confirm-cancel">
          {t('common.no')}
        </Button>
        <Button
          variant="contained"
          color="error"
          data-testid="confirm-ok"
          onClick={() => {
            onConfirm();
            onClose();
          }}
        >
          {t('common.yes')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
