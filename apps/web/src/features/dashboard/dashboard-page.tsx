import { DASHBOARD_PERIODS, type DashboardAttendant } from '@atende/shared';
import { AgentLoadTable } from './agent-load-table';
import {
  Alert,
  Box,
  Button,
  Card,
  CardContent,
  Chip,
  Grid,
  MenuItem,
  Paper,
  Rating,
  Skeleton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { lazy, Suspense, useId, useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';
import { displayTimeZone, today } from '../../i18n/dates';
import { useConnections } from '../connections/connections-queries';
import { useQueues } from '../queues/queues-queries';
import { SlaReportSection } from '../sla/sla-report';
import { useDashboard, useDashboardLive, type DashboardFilter } from './dashboard-queries';

// recharts is loaded with the charts only, never with the tickets screen.
const DashboardCharts = lazy(() => import('./dashboard-charts'));
const pad = (value: number) => String(value).padStart(2, '0');

/** Spec part 1 §9: the first day of the month to today, in the company's calendar. */
export function defaultFilter(now = new Date()): DashboardFilter {
  const day = today(displayTimeZone(), now);
  return { from: `${day.slice(0, 8)}01`, to: day, queueIds: [], whatsappIds: [] };
}

/** Minutes as "1h 05m" (spec: averages in hours and minutes). */
function useDuration() {
  const { t } = useTranslation();
  return (minutes: number | null) => {
    if (minutes === null) return t('dashboard.noValue');
    const total = Math.round(minutes);
    return t('dashboard.duration', { hours: Math.floor(total / 60), minutes: pad(total % 60) });
  };
}

function Counter({ label, value, hint, testId }: { label: string; value: string | number | undefined; hint?: string; testId: string }) {
  return (
    <Card variant="outlined" sx={{ height: '100%' }}>
      <CardContent>
        <Typography variant="body2" color="text.secondary">
          {label}
        </Typography>
        {value === undefined ? (
          <Skeleton width={80} height={40} />
        ) : (
          <Typography variant="h5" component="p" data-testid={testId}>
            {value}
          </Typography>
        )}
        {hint ? (
          <Typography variant="caption" color="text.secondary">
            {hint}
          </Typography>
        ) : null}
      </CardContent>
    </Card>
  );
}

function AttendantsTable({ attendants }: { attendants: DashboardAttendant[] | undefined }) {
  const { t } = useTranslation();
  const duration = useDuration();
  const titleId = useId();
  return (
    <Paper variant="outlined">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }} id={titleId}>
        {t('dashboard.attendants.title')}
      </Typography>
      {/* On a phone the table scrolls sideways: a region the keyboard can reach and scroll with the arrows. */}
      <TableContainer tabIndex={0} role="region" aria-labelledby={titleId}>
        <Table size="small">
          <TableHead>
            <TableRow>
              <TableCell>{t('dashboard.attendants.name')}</TableCell>
              <TableCell>{t('dashboard.attendants.rating')}</TableCell>
              <TableCell>{t('dashboard.attendants.avgSupportTime')}</TableCell>
              <TableCell align="right">{t('dashboard.attendants.tickets')}</TableCell>
              <TableCell>{t('dashboard.attendants.status')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {attendants === undefined ? (
              <TableRow>
                <TableCell colSpan={5}>
                  <Skeleton />
                </TableCell>
              </TableRow>
            ) : attendants.length === 0 ? (
              <TableRow>
                <TableCell colSpan={5}>{t('dashboard.attendants.empty')}</TableCell>
              </TableRow>
            ) : (
              attendants.map((attendant) => (
                <TableRow key={attendant.id} data-testid="dashboard-attendant" data-name={attendant.name}>
                  <TableCell>{attendant.name}</TableCell>
                  <TableCell>
                    {attendant.rating === null ? (
                      <Typography variant="caption" color="text.secondary">
                        {t('dashboard.attendants.notRated')}
                      </Typography>
                    ) : (
                      <Rating value={attendant.rating} max={3} precision={0.1} readOnly size="small" aria-label={t('dashboard.attendants.stars', { value: attendant.rating })} />
                    )}
                  </TableCell>
                  <TableCell>{duration(attendant.avgSupportTime)}</TableCell>
                  <TableCell align="right" data-testid="dashboard-attendant-tickets">
                    {attendant.tickets}
                  </TableCell>
                  <TableCell>
                    <Chip
                      size="small"
                      color={attendant.online ? 'success' : 'default'}
                      label={t(attendant.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline')}
                      data-testid="dashboard-attendant-online"
                      data-online={String(attendant.online)}
                    />
                  </TableCell>
                </TableRow>
              ))
            )}
          </TableBody>
        </Table>
      </TableContainer>
    </Paper>
  );
}

type FilterType = 'period' | 'dates';

/** The dashboard (spec part 1 §2, issue 21): admins only; others go to /tickets. */
export default function DashboardPage() {
  const { t, i18n } = useTranslation();
  const { user } = useSession();
  const queues = useQueues();
  const connections = useConnections();
  const duration = useDuration();
  const [filter, setFilter] = useState<DashboardFilter>(() => defaultFilter());
  const [type, setType] = useState<FilterType>('dates');
  const [period, setPeriod] = useState<number | ''>('');
  const [from, setFrom] = useState(filter.from ?? '');
  const [to, setTo] = useState(filter.to ?? '');
  const [queueIds, setQueueIds] = useState<number[]>([]);
  const [whatsappIds, setWhatsappIds] = useState<number[]>([]);
  const admin = user?.profile === 'admin';
  const dashboard = useDashboard(filter);
  useDashboardLive();

  if (user && !admin) return <Navigate to="/tickets" replace />;

  const apply = (event: FormEvent) => {
    event.preventDefault();
    // Spec part 1 §5: applying with no filter at all is refused with a toast.
    if (type === 'period' ? period === '' : !from && !to) {
      toastError(new Error(t('dashboard.filter.select')));
      return;
    }
    setFilter(type === 'period' ? { days: Number(period), queueIds, whatsappIds } : { from: from || undefined, to: to || undefined, queueIds, whatsappIds });
  };

  const counters = dashboard.data?.counters;
  const ratings = counters ? `${counters.ratings[1]} · ${counters.ratings[2]} · ${counters.ratings[3]}` : undefined;
  const firstResponse = counters ? `${duration(counters.firstResponseMedian)} · ${duration(counters.firstResponseP90)}` : undefined;

  return (
    <Box sx={{ p: { xs: 1, sm: 2 }, overflow: 'auto', height: '100%' }}>
      <Typography variant="h5" component="h1" sx={{ mb: 2 }} data-testid="dashboard-title">
        {t('dashboard.title')}
      </Typography>
      <Paper variant="outlined" component="form" onSubmit={apply} sx={{ p: 2, mb: 2 }} data-testid="dashboard-filter">
        <Grid container spacing={2} sx={{ alignItems: 'center' }}>
          <Grid size={{ xs: 12, sm: 6, md: 2 }}>
            <TextField select fullWidth size="small" label={t('dashboard.filter.type')} value={type} onChange={(event) => setType(event.target.value as FilterType)} slotProps={{ htmlInput: { 'data-testid': 'dashboard-filter-type' } }}>
              <MenuItem value="dates">{t('dashboard.filter.byDates')}</MenuItem>
              <MenuItem value="period">{t('dashboard.filter.byPeriod')}</MenuItem>
            </TextField>
          </Grid>
          {type === 'period' ? (
            <Grid size={{ xs: 12, sm: 6, md: 3 }}>
              <TextField
                select
                fullWidth
                size="small"
                label={t('dashboard.filter.period')}
                value={period}
                onChange={(event) => setPeriod(event.target.value === '' ? '' : Number(event.target.value))}
                slotProps={{ htmlInput: { 'data-testid': 'dashboard-period' } }}
              >
                <MenuItem value="">{t('dashboard.filter.none')}</MenuItem>
                {DASHBOARD_PERIODS.map((days) => (
                  <MenuItem key={days} value={days}>
                    {t('dashboard.filter.lastDays', { days })}
                  </MenuItem>
                ))}
              </TextField>
            </Grid>
          ) : (
            <>
              <Grid size={{ xs: 6, md: 2 }}>
                <TextField fullWidth size="small" type="date" label={t('dashboard.filter.from')} value={from} onChange={(event) => setFrom(event.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'dashboard-from' } }} />
              </Grid>
              <Grid size={{ xs: 6, md: 2 }}>
                <TextField fullWidth size="small" type="date" label={t('dashboard.filter.to')} value={to} onChange={(event) => setTo(event.target.value)} slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'dashboard-to' } }} />
              </Grid>
            </>
          )}
          <Grid size={{ xs: 12, sm: 6, md: 2 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('dashboard.filter.queues')}
              value={queueIds}
              onChange={(event) => setQueueIds((event.target.value as unknown as number[]).map(Number))}
              slotProps={{ select: { multiple: true } }}
            >
              {(queues.data ?? []).map((queue) => (
                <MenuItem key={queue.id} value={queue.id}>
                  {queue.name}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, sm: 6, md: 2 }}>
            <TextField
              select
              fullWidth
              size="small"
              label={t('dashboard.filter.connections')}
              value={whatsappIds}
              onChange={(event) => setWhatsappIds((event.target.value as unknown as number[]).map(Number))}
              slotProps={{ select: { multiple: true } }}
            >
              {(connections.data ?? []).map((connection) => (
                <MenuItem key={connection.id} value={connection.id}>
                  {connection.name}
                </MenuItem>
              ))}
            </TextField>
          </Grid>
          <Grid size={{ xs: 12, md: 'auto' }}>
            <Button type="submit" variant="contained" fullWidth data-testid="dashboard-apply">
              {t('dashboard.filter.apply')}
            </Button>
          </Grid>
        </Grid>
        <Typography variant="caption" color="text.secondary" sx={{ display: 'block', mt: 1 }}>
          {t('dashboard.live')}
        </Typography>
      </Paper>
      {dashboard.isError ? (
        <Alert severity="error" sx={{ mb: 2 }} data-testid="dashboard-error">
          {dashboard.error instanceof ApiError && dashboard.error.code && i18n.exists(`errors.${dashboard.error.code}`) ? t(`errors.${dashboard.error.code}`) : String(dashboard.error.message)}
        </Alert>
      ) : null}
      <Grid container spacing={2} sx={{ mb: 2 }}>
        {(
          [
            ['supportHappening', counters?.supportHappening],
            ['supportPending', counters?.supportPending],
            ['supportFinished', counters?.supportFinished],
            ['leads', counters?.leads],
            ['avgSupportTime', counters ? duration(counters.avgSupportTime) : undefined],
            ['avgWaitTime', counters ? duration(counters.avgWaitTime) : undefined],
          ] as const
        ).map(([key, value]) => (
          <Grid key={key} size={{ xs: 6, sm: 4, md: 2 }}>
            <Counter label={t(`dashboard.counters.${key}`)} value={value} testId={`dashboard-counter-${key}`} />
          </Grid>
        ))}
        <Grid size={{ xs: 12, sm: 6 }}>
          <Counter label={t('dashboard.counters.firstResponse')} value={firstResponse} testId="dashboard-counter-firstResponse" />
        </Grid>
        <Grid size={{ xs: 12, sm: 6 }}>
          <Counter
            label={t('dashboard.counters.ratings')}
            value={ratings}
            hint={counters ? t('dashboard.counters.ratingRate', { rate: counters.ratingResponseRate }) : undefined}
            testId="dashboard-counter-ratings"
          />
        </Grid>
      </Grid>
      <Stack spacing={2}>
        <AttendantsTable attendants={dashboard.data?.attendants} />
        <AgentLoadTable />
        <SlaReportSection filter={filter} />
        <Suspense fallback={<Skeleton variant="rectangular" height={320} />}>
          <DashboardCharts filter={filter} />
        </Suspense>
      </Stack>
    </Box>
  );
}
