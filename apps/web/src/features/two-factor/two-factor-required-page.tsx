import { Box, Button, Paper, Stack, Typography } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { TwoFactorPanel } from './two-factor-panel';

/**
 * What a user sees while the company requires a second factor and it has none: the server
 * answers 403 ERR_TWO_FACTOR_SETUP_REQUIRED everywhere else, so nothing else is shown.
 */
export default function TwoFactorRequiredPage() {
  const { t } = useTranslation();
  const { signOut } = useSession();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 2, sm: 4 }, width: '100%', maxWidth: 520 }} elevation={3} data-testid="two-factor-required">
        <Stack spacing={2}>
          <Typography variant="h5" component="h1">
            {t('twoFactor.requiredPageTitle')}
          </Typography>
          <Typography variant="body2">{t('twoFactor.requiredPageIntro')}</Typography>
          <TwoFactorPanel />
          <Button onClick={() => void signOut()} data-testid="two-factor-logout" sx={{ alignSelf: 'flex-start' }}>
            {t('twoFactor.logout')}
          </Button>
        </Stack>
      </Paper>
    </Box>
  );
}
