import { Alert, Chip, LinearProgress, Paper, Skeleton, Table, TableBody, TableCell, TableContainer, TableHead, TableRow, Typography } from '@mui/material';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { useAgentLoad } from './dashboard-queries';

/** The agents' load (auto-assignment, issue 35): open tickets against capacity, and who is online now. */
export function AgentLoadTable() {
  const { t } = useTranslation();
  const titleId = useId();
  const load = useAgentLoad();
  const agents = load.data?.agents;
  return (
    <Paper variant="outlined" data-testid="dashboard-agent-load">
      <Typography variant="h6" component="h2" sx={{ px: 2, pt: 1.5 }} id={titleId}>
        {t('dashboard.agentLoad.title')}
      </Typography>
      {load.isError ? (
        <Alert severity="error" sx={{ m: 2 }}>
          {t('dashboard.agentLoad.failed')}
        </Alert>
      ) : (
        <TableContainer tabIndex={0} role="region" aria-labelledby={titleId}>
          <Table size="small">
            <TableHead>
              <TableRow>
                <TableCell>{t('dashboard.agentLoad.name')}</TableCell>
                <TableCell>{t('dashboard.agentLoad.load')}</TableCell>
                <TableCell>{t('dashboard.agentLoad.status')}</TableCell>
              </TableRow>
            </TableHead>
            <TableBody>
              {agents === undefined ? (
                <TableRow>
                  <TableCell colSpan={3}>
                    <Skeleton />
                  </TableCell>
                </TableRow>
              ) : agents.length === 0 ? (
                <TableRow>
                  <TableCell colSpan={3}>{t('dashboard.agentLoad.empty')}</TableCell>
                </TableRow>
              ) : (
                agents.map((agent) => (
                  <TableRow key={agent.id} data-testid="dashboard-agent-load-row" data-name={agent.name}>
                    <TableCell>{agent.name}</TableCell>
                    <TableCell sx={{ minWidth: 140 }} data-testid="dashboard-agent-load-value">
                      {agent.capacity === null ? (
                        t('dashboard.agentLoad.noCapacity', { open: agent.openTickets })
                      ) : (
                        <>
                          {t(agent.ownCapacity ? 'dashboard.agentLoad.ofOwn' : 'dashboard.agentLoad.of', { open: agent.openTickets, capacity: agent.capacity })}
                          <LinearProgress
                            variant="determinate"
                            value={Math.min(100, (agent.openTickets / agent.capacity) * 100)}
                            color={agent.openTickets >= agent.capacity ? 'warning' : 'primary'}
                            aria-label={t('dashboard.agentLoad.of', { open: agent.openTickets, capacity: agent.capacity })}
                          />
                        </>
                      )}
                    </TableCell>
                    <TableCell>
                      <Chip size="small" color={agent.online ? 'success' : 'default'} label={t(agent.online ? 'dashboard.attendants.online' : 'dashboard.attendants.offline')} data-online={String(agent.online)} />
                    </TableCell>
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
