import { Alert, Box, CircularProgress, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

interface TableStatusProps {
  loading: boolean;
  /** The list could not be loaded: said, not shown as an empty list. */
  failed?: boolean;
  empty: boolean;
  emptyText: string;
  emptyTestId?: string;
}

/** Under a list's table: a spinner while it loads, the error if it failed, the empty text when there is nothing. */
export function TableStatus({ loading, failed = false, empty, emptyText, emptyTestId }: TableStatusProps) {
  const { t } = useTranslation();
  if (loading) {
    return (
      <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
        <CircularProgress size={28} aria-label={t('common.loading')} />
      </Box>
    );
  }
  if (failed) {
    return (
      <Alert severity="error" sx={{ m: 2 }}>
        {t('common.loadError')}
      </Alert>
    );
  }
  if (!empty) return null;
  return (
    <Typography color="text.secondary" sx={{ p: 3, textAlign: 'center' }} data-testid={emptyTestId}>
      {emptyText}
    </Typography>
  );
}
