import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import { IconButton, TableCell } from '@mui/material';
import { Tooltip } from './tooltip';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface RowActionProps {
  onClick(): void;
  testId: string;
}

/** A table row's edit button (pencil, tooltip and accessible name "Editar"). */
function EditButton({ onClick, testId }: RowActionProps) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('common.edit')}>
      <IconButton size="small" aria-label={t('common.edit')} onClick={onClick} data-testid={testId}>
        <Edit fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

/** A table row's delete button; the page asks for confirmation. */
function DeleteButton({ onClick, testId }: RowActionProps) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('common.delete')}>
      <IconButton size="small" aria-label={t('common.delete')} onClick={onClick} data-testid={testId}>
        <DeleteOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}

interface RowActionsCellProps {
  /** The buttons' test ids are `${testIdPrefix}-edit` and `${testIdPrefix}-delete`. */
  testIdPrefix: string;
  /** Without it, no edit button (the user may not edit the row). */
  onEdit?(): void;
  /** Without it, no delete button. */
  onDelete?(): void;
  /** The row's own buttons, before edit and delete. */
  children?: ReactNode;
}

/** A table row's last cell: its edit and delete buttons, on one line at the right. */
export function RowActionsCell({ testIdPrefix, onEdit, onDelete, children }: RowActionsCellProps) {
  return (
    <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
      {children}
      {onEdit ? <EditButton onClick={onEdit} testId={`${testIdPrefix}-edit`} /> : null}
      {onDelete ? <DeleteButton onClick={onDelete} testId={`${testIdPrefix}-delete`} /> : null}
    </TableCell>
  );
}
