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

/** The confirmation about one item (a row to delete, a connection to disconnect): open while `item` is set, which `onConfirm` receives. */
export function ItemConfirmationDialog<T>({
  item,
  title,
  children,
  onConfirm,
  onClose,
}: {
  item: T | null;
  title: string;
  children?: ReactNode;
  onConfirm(item: T): void;
  onClose(): void;
}) {
  return (
    <ConfirmationDialog
      open={item !== null}
      title={title}
      onClose={onClose}
      onConfirm={() => {
        if (item !== null) onConfirm(item);
      }}
    >
      {children}
    </ConfirmationDialog>
  );
}
