import type { SlaReport, SlaTally } from '@atende/shared';
import { Alert, Paper, Skeleton, Tab, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Tabs, Typography } from '@mui/material';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { formatDate } from '../../i18n/dates';
import type { DashboardFilter } from '../dashboard/dashboard-queries';

type View = 'queues' | 'agents' | 'days';

interface Line extends SlaTally {
  key: string;
  name: string;
}

function useSlaReport(filter: DashboardFilter) {
  const { api } = useSession();
  return useQuery({
    queryKey: ['dashboard', 'sla', filter],
    queryFn: () =>
      api.get<SlaReport>('/dashboard/sla', {
        ...(filter.days ? { days: filter.days } : { date_from: filter.from, date_to: filter.to }),
        ...(filter.queueIds.length ? { queueIds: filter.queueIds } : {}),
      }),
    placeholderData: keepPreviousData,
  });
}

/** The dashboard's "targets met" (issue 35): per queue, agent and day of the period, first response and resolution. */
export function SlaReportSection({ filter }: { filter: DashboardFilter }) {
  const { t } = useTranslation();
  const titleId = useId();
  const [view, setView] = useState<View>('queues');
  const report = useSlaReport(filter);
  const data = report.data;
  const lines: Line[] | undefined = data
    ? view === 'queues'
      ? data.queues.map((row) => ({ ...row, key: `q${row.queueId}`, name: row.name }))
      : view === 'agents'
        ? data.agents.map((row) => ({ ...row, key: `u${row.userId ?? 0}`, name: row.name || t('sla.report.unassigned') }))
        : data.days.map((row) => ({ ...row, key: row.day, name: formatDate(row.day) }))
    : undefined;
  const pair = (met: number, missed: number) => `${met} / ${missed}`;
  return (
    <Paper variant="outlined" data-testid="dashboard-sla">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }} id={titleId}>
        {t('sla.report.title')}
        {data?.total.rate != null ? ` · ${data.total.rate}%` : ''}
      </Typography>
      <Tabs value={view} onChange={(_, next: View) => setView(next)} variant="scrollable" allowScrollButtonsMobile sx={{ px: 1 }}>
        <Tab value="queues" label={t('sla.report.byQueue')} data-testid="dashboard-sla-queues" />
        <Tab value="agents" label={t('sla.report.byAgent')} data-testid="dashboard-sla-agents" />
        <Tab value="days" label={t('sla.report.byDay')} data-testid="dashboard-sla-days" />
      </Tabs>
      {report.isError ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('sla.report.error')}
        </Alert>
      ) : (
        <TableContainer tabIndex={0} role="region" aria-labelledby={titleId}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{view === 'days' ? t('sla.report.day') : t('sla.report.name')}</TableCell>
                <TableCell align="right">{t('sla.report.firstResponse')}</TableCell>
                <TableCell align="right">{t('sla.report.resolution')}</TableCell>
                <TableCell align="right">{t('sla.report.rate')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {lines === undefined ? (
                <TableRow>
                  <TableCell colSpan={4}>
                    <Skeleton />
                  </TableCell>
                </TableRow>
              ) : lines.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={4}>{t('sla.report.empty')}</TableCell>
                </TableRow>
              ) : (
                lines.map((line) => (
                  <TableRow key={line.key} data-testid="dashboard-sla-row" data-name={line.name}>
                    <TableCell>{line.name}</TableCell>
                    <TableCell align="right">{pair(line.firstResponseMet, line.firstResponseMissed)}</TableCell>
                    <TableCell align="right">{pair(line.resolutionMet, line.resolutionMissed)}</TableCell>
                    <TableCell align="right">{line.rate === null ? '–' : `${line.rate}%`}</TableCell>
                  </TableRow>
                ))
              )}
            </TableBody>
          </Table>
        </TableContainer>
      )}
    </Paper>
  );
}
