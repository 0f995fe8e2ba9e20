import type { PublicAuthOptions } from '@atende/shared';
import { Box, Paper, Stack, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../api/session';

/** `GET /auth/options` (public): whether sign-up is open and whether e-mail can be sent. */
export function useAuthOptions() {
  const { api } = useSession();
  return useQuery({ queryKey: ['auth-options'], queryFn: () => api.get<PublicAuthOptions>('/auth/options'), staleTime: 60_000 });
}

/** The centred card of the public pages (sign-up, password reset), as the login page looks. */
export function PublicCard({ title, children, maxWidth = 440 }: { title: string; children: ReactNode; maxWidth?: number }) {
  const { t } = useTranslation();
  return (
    <Box component="main" sx={{ minHeight: '100vh', display: 'flex', alignItems: 'center', justifyContent: 'center', p: 2 }}>
      <Paper sx={{ p: { xs: 3, sm: 4 }, width: '100%', maxWidth }} elevation={3}>
        <Stack spacing={2}>
          <Typography variant="h4" component="p" color="primary" sx={{ textAlign: 'center', fontWeight: 700 }}>
            {t('app.name')}
          </Typography>
          <Typography variant="h6" component="h1" sx={{ textAlign: 'center' }}>
            {title}
          </Typography>
          {children}
        </Stack>
      </Paper>
    </Box>
  );
}
