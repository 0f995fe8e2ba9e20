import DownloadOutlined from '@mui/icons-material/DownloadOutlined';
import { Box, Button, Grid, Paper, Skeleton, Stack, Typography, useTheme } from '@mui/material';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Bar, BarChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { toastError } from '../../components/toast';
import { downloadTextFile, toCsv, UTF8_BOM, type CsvValue } from '../contacts/csv-writer';
import { useTicketsDay, useTicketsUsers, type DashboardFilter } from './dashboard-queries';

interface ChartProps {
  title: string;
  total: number | undefined;
  rows: { label: string; value: number }[] | undefined;
  csvName: string;
  csvHeader: [string, string];
  /** The CSV's rows when they differ from the chart's labels (full dates). */
  csvRows?: CsvValue[][];
  testId: string;
}

/** One bar chart with its total and a CSV of its data; readable in light and dark. */
function ChartCard({ title, total, rows, csvName, csvHeader, csvRows, testId }: ChartProps) {
  const { t } = useTranslation();
  const theme = useTheme();
  const download = () => {
    const table: CsvValue[][] = [csvHeader, ...(csvRows ?? (rows ?? []).map((row) => [row.label, row.value]))];
    downloadTextFile(csvName, UTF8_BOM + toCsv(table), 'text/csv;charset=utf-8');
  };
  const text = theme.palette.text.secondary;
  return (
    <Paper variant="outlined" sx={{ p: 2, height: '100%' }} data-testid={testId}>
      <Stack direction="row" sx={{ alignItems: 'center', justifyContent: 'space-between', mb: 1, gap: 1, flexWrap: 'wrap' }}>
        <Box>
          <Typography variant="h6" component="h2">{title}</Typography>
          <Typography variant="caption" color="text.secondary" data-testid={`${testId}-total`}>
            {t('dashboard.charts.total', { count: total ?? 0 })}
          </Typography>
        </Box>
        <Button size="small" startIcon={<DownloadOutlined />} onClick={download} disabled={!rows} data-testid={`${testId}-csv`}>
          {t('dashboard.charts.csv')}
        </Button>
      </Stack>
      {rows === undefined ? (
        <Skeleton variant="rectangular" height={260} />
      ) : rows.length === 0 || total === 0 ? (
        <Typography color="text.secondary" sx={{ py: 8, textAlign: 'center' }}>
          {t('dashboard.charts.empty')}
        </Typography>
      ) : (
        <Box sx={{ width: '100%', height: 260 }}>
          <ResponsiveContainer>
            <BarChart data={rows} margin={{ top: 8, right: 8, bottom: 8, left: -16 }}>
              <CartesianGrid strokeDasharray="3 3" stroke={theme.palette.divider} />
              <XAxis dataKey="label" tick={{ fill: text, fontSize: 12 }} stroke={text} />
              <YAxis allowDecimals={false} tick={{ fill: text, fontSize: 12 }} stroke={text} />
              <Tooltip
                contentStyle={{ background: theme.palette.background.paper, border: `1px solid ${theme.palette.divider}`, color: theme.palette.text.primary }}
                cursor={{ fill: theme.palette.action.hover }}
              />
              <Bar dataKey="value" name={t('dashboard.charts.tickets')} fill={theme.palette.primary.main} radius={[4, 4, 0, 0]} isAnimationActive={false} />
            </BarChart>
          </ResponsiveContainer>
        </Box>
      )}
    </Paper>
  );
}

/** The two charts of the dashboard (spec part 1 §2): tickets per user, and per day (or per hour for one day). */
export default function DashboardCharts({ filter }: { filter: DashboardFilter }) {
  const { t } = useTranslation();
  const users = useTicketsUsers(filter);
  const days = useTicketsDay(filter);
  // Spec part 1 §7: the users chart and the dates chart each have their error toast.
  useEffect(() => {
    if (users.isError) toastError(new Error(t('dashboard.charts.userError')));
  }, [users.isError, t]);
  useEffect(() => {
    if (days.isError) toastError(new Error(t('dashboard.charts.dateError')));
  }, [days.isError, t]);

  const perHour = days.data?.data.some((row) => 'horario' in row) ?? false;
  const dayRows = days.data?.data.map((row) => ('horario' in row ? { label: row.horario, value: row.total } : { label: row.data.split('-').reverse().slice(0, 2).join('/'), value: row.total }));
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard
          title={t('dashboard.charts.perUser')}
          total={users.data?.count}
          rows={users.data?.data.map((row) => ({ label: row.nome, value: row.quantidade }))}
          csvName="atendimentos-por-usuario.csv"
          csvHeader={[t('dashboard.charts.user'), t('dashboard.charts.tickets')]}
          testId="dashboard-chart-users"
        />
      </Grid>
      <Grid size={{ xs: 12, md: 6 }}>
        <ChartCard
          title={t(perHour ? 'dashboard.charts.perHour' : 'dashboard.charts.perDay')}
          total={days.data?.count}
          rows={dayRows}
          csvName={perHour ? 'atendimentos-por-hora.csv' : 'atendimentos-por-dia.csv'}
          csvHeader={[t(perHour ? 'dashboard.charts.hour' : 'dashboard.charts.day'), t('dashboard.charts.tickets')]}
          csvRows={days.data?.data.map((row) => ['horario' in row ? row.horario : row.data, row.total])}
          testId="dashboard-chart-days"
        />
      </Grid>
    </Grid>
  );
}
