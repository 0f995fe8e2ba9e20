import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import Edit from '@mui/icons-material/Edit';
import { IconButton, Tooltip } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface RowActionProps {
  onClick(): void;
  testId: string;
}

/** A table row's edit button (pencil, tooltip and accessible name "Editar"). */
export function EditButton({ onClick, testId }: RowActionProps) {
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
export function DeleteButton({ onClick, testId }: RowActionProps) {
  const { t } = useTranslation();
  return (
    <Tooltip title={t('common.delete')}>
      <IconButton size="small" aria-label={t('common.delete')} onClick={onClick} data-testid={testId}>
        <DeleteOutlined fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
