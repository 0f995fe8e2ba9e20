import ArrowBack from '@mui/icons-material/ArrowBack';
import { Alert, Box, Card, CardContent, Grid, IconButton, LinearProgress, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useParams } from 'react-router';
import { PageLoading } from '../../components/page-loading';
import { usePlanGate } from '../../components/use-plan-gate';
import { formatDateTime } from '../../i18n';
import { CampaignStatusChip } from './campaign-status';
import { useCampaign, useCampaignEvents } from './campaigns-queries';

/** Spec part 2 §4: when the report receives FINALIZADA it reloads after 5 seconds. */
const REPORT_RELOAD_MS = 5000;

function Figure({ label, value, testId }: { label: string; value: string | number; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        <Typography variant="h5" component="p" data-testid={testId}>
          {value}
        </Typography>
      </CardContent>
    </Card>
  );
}

/** Campaign report (spec part 2 §2.7): progress, valid, sent, delivered, failed with reasons, connection, list, times; live. */
export default function CampaignReportPage() {
  const { t } = useTranslation();
  const allowed = usePlanGate('useCampaigns');
  const id = Number(useParams().campaignId);
  const campaign = useCampaign(id, allowed);
  const [finishedAt, setFinishedAt] = useState<number | null>(null);
  useCampaignEvents((saved) => {
    if (saved.id === id && saved.status === 'FINALIZADA') setFinishedAt(Date.now());
  });
  const { refetch } = campaign;
  useEffect(() => {
    if (finishedAt === null) return;
    const timer = setTimeout(() => void refetch(), REPORT_RELOAD_MS);
    return () => clearTimeout(timer);
  }, [finishedAt, refetch]);

  if (!allowed) return null;
  if (campaign.isPending) return <PageLoading />;
  if (campaign.isError) return <Alert severity="error" sx={{ m: 2 }}>{t('errors.ERR_NO_CAMPAIGN_FOUND')}</Alert>;
  const data = campaign.data;
  const { progress } = data;
  const done = progress.sent + progress.failed + progress.cancelled;
  const percent = progress.valid ? Math.round((done / progress.valid) * 100) : data.status === 'FINALIZADA' ? 100 : 0;
  const when = (iso: string | null) => (iso ? formatDateTime(iso) : t('campaigns.none'));

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, overflow: 'auto', height: '100%' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', mb: 2, flexWrap: 'wrap' }}>
        <Tooltip title={t('campaigns.reportPage.back')}>
          <IconButton component={RouterLink} to="/campaigns" aria-label={t('campaigns.reportPage.back')}>
            <ArrowBack />
          </IconButton>
        </Tooltip>
        <Typography variant="h6" component="h1" sx={{ overflowWrap: 'anywhere' }}>
          {t('campaigns.reportPage.title', { name: data.name })}
        </Typography>
        <CampaignStatusChip status={data.status} />
      </Stack>
      <Box sx={{ mb: 2 }}>
        <LinearProgress variant="determinate" value={percent} sx={{ height: 10, borderRadius: 5 }} aria-label={t('campaigns.reportPage.progress', { done, total: progress.valid })} data-testid="campaign-progress" data-percent={percent} />
        <Typography variant="body2" color="text.secondary" sx={{ mt: 0.5 }}>
          {t('campaigns.reportPage.progress', { done, total: progress.valid })} ({percent}%)
        </Typography>
      </Box>
      <Grid container spacing={2}>
        {(
          [
            ['valid', progress.valid],
            ['sent', progress.sent],
            ['delivered', progress.delivered],
            ['failed', progress.failed],
            ['pending', progress.queued],
          ] as const
        ).map(([key, value]) => (
          <Grid key={key} size={{ xs: 6, sm: 4, md: 2.4 }}>
            <Figure label={t(`campaigns.reportPage.${key}`)} value={value} testId={`campaign-${key}`} />
          </Grid>
        ))}
        {(
          [
            ['whatsapp', data.whatsapp?.name ?? t('campaigns.none')],
            ['contactList', data.contactList?.name ?? t('campaigns.none')],
            ['scheduledAt', when(data.scheduledAt)],
            ['completedAt', when(data.completedAt)],
          ] as const
        ).map(([key, value]) => (
          <Grid key={key} size={{ xs: 12, sm: 6, md: 3 }}>
            <Figure label={t(`campaigns.reportPage.${key}`)} value={value} testId={`campaign-${key}`} />
          </Grid>
        ))}
      </Grid>
      {data.failures?.length ? (
        <Box sx={{ mt: 2 }}>
          <Typography variant="subtitle1">{t('campaigns.reportPage.failures')}</Typography>
          <List dense>
            {data.failures.map((failure) => (
              <ListItem key={failure.number} disableGutters>
                <ListItemText primary={failure.number} secondary={failure.reason ? t(`errors.${failure.reason}`, { defaultValue: failure.reason }) : null} />
              </ListItem>
            ))}
          </List>
        </Box>
      ) : null}
    </Box>
  );
}
