import { Alert, Box, CircularProgress, Stack, Typography } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { HelpCard } from './help-card';
import { HelpPlayerDialog } from './help-player-dialog';
import { sortHelps, useHelps, type Help } from './helps-queries';

/** Help page (spec part 2 §2.16): a grid of video cards; a click opens the embedded player, Escape closes it. */
export default function HelpsPage() {
  const { t } = useTranslation();
  const helps = useHelps();
  const [playing, setPlaying] = useState<Help | null>(null);
  const list = sortHelps(helps.data ?? []);

  return (
    <Stack spacing={2}>
      <Box>
        <Typography variant="h5" component="h1">
          {t('helps.title')}
        </Typography>
        <Typography variant="body2" color="text.secondary">
          {t('helps.subtitle')}
        </Typography>
      </Box>
      {helps.isPending ? (
        <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 3 }}>
          <CircularProgress size={28} aria-label={t('common.loading')} />
        </Box>
      ) : helps.isError ? (
        <Alert severity="error">{t('helps.loadError')}</Alert>
      ) : list.length === 0 ? (
        <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }} data-testid="helps-empty">
          {t('helps.empty')}
        </Typography>
      ) : (
        <Box
          data-testid="helps-grid"
          sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', md: 'repeat(3, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' } }}
        >
          {list.map((help) => (
            <HelpCard key={help.id} help={help} onOpen={setPlaying} />
          ))}
        </Box>
      )}
      {playing ? <HelpPlayerDialog help={playing} onClose={() => setPlaying(null)} /> : null}
    </Stack>
  );
}
