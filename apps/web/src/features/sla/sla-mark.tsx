import { slaStateAt, type PresentedTicket } from '@atende/shared';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import ScheduleIcon from '@mui/icons-material/Schedule';
import WarningAmberIcon from '@mui/icons-material/WarningAmber';
import { Chip } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/dates';
import { formatTicketTime } from '../tickets/ticket-format';

/** How often a shown mark looks at the clock again (a ticket turns to warning or breached while on screen). */
const TICK_MS = 30_000;

function useNow(): Date {
  const [now, setNow] = useState(() => new Date());
  useEffect(() => {
    const timer = setInterval(() => setNow(new Date()), TICK_MS);
    return () => clearInterval(timer);
  }, []);
  return now;
}

/**
 * A ticket's mark against its response-time target (issue 35): a chip with an icon, a word and the due time
 * (never the colour alone), its full due date in the tooltip. Filled red when breached, filled amber with dark
 * text when near (both AA), outlined when on time; nothing without a running target.
 */
export function SlaMark({ ticket }: { ticket: Pick<PresentedTicket, 'slaDueAt' | 'slaWarnAt' | 'slaState'> }) {
  const { t } = useTranslation();
  const now = useNow();
  if (!ticket.slaDueAt) return null;
  const state = slaStateAt(ticket.slaDueAt, ticket.slaWarnAt, now) ?? ticket.slaState ?? 'ok';
  const when = formatTicketTime(ticket.slaDueAt, now);
  const label = t(`sla.mark.${state}`, { when });
  const icon = state === 'breached' ? <ErrorOutlineIcon /> : state === 'warning' ? <WarningAmberIcon /> : <ScheduleIcon />;
  return (
    <Tooltip title={t('sla.mark.tooltip', { when: formatDateTime(ticket.slaDueAt) })}>
      <Chip
        size="small"
        icon={icon}
        label={label}
        data-testid="ticket-sla"
        data-sla-state={state}
        variant={state === 'ok' ? 'outlined' : 'filled'}
        sx={
          state === 'breached'
            ? { bgcolor: '#b71c1c', color: '#fff', '& .MuiChip-icon': { color: '#fff' } }
            : state === 'warning'
              ? { bgcolor: '#ffb74d', color: '#1f1300', '& .MuiChip-icon': { color: '#1f1300' } }
              : { color: 'text.secondary', '& .MuiChip-icon': { color: 'text.secondary' } }
        }
      />
    </Tooltip>
  );
}
