import { Paper, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';

/** What an address the app does not know shows (every menu area is built). */
export function PlaceholderPage({ titleKey }: { titleKey: string }) {
  const { t } = useTranslation();
  return (
    <Paper sx={{ p: 3 }} variant="outlined">
      <Typography variant="h5" component="h1" gutterBottom>
        {t(titleKey)}
      </Typography>
      <Typography color="text.secondary">{t('placeholder.missing')}</Typography>
    </Paper>
  );
}
