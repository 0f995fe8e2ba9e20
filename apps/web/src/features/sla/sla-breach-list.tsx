import type { PresentedSlaBreach } from '@atende/shared';
import ErrorOutlineIcon from '@mui/icons-material/ErrorOutlineOutlined';
import { ListItem, ListItemButton, ListItemIcon, ListItemText, ListSubheader } from '@mui/material';
import { useTranslation } from 'react-i18next';
import { formatDateTime } from '../../i18n/dates';

/** The bell's section of missed targets (issue 35); each opens its ticket. */
export function SlaBreachList({ breaches, onOpen }: { breaches: PresentedSlaBreach[]; onOpen(uuid: string): void }) {
  const { t } = useTranslation();
  if (breaches.length === 0) return null;
  return (
    <>
      <ListSubheader disableSticky sx={{ lineHeight: '32px' }}>
        {t('sla.bell.title')}
      </ListSubheader>
      {breaches.map((breach) => (
        <ListItem key={breach.id} disablePadding>
          <ListItemButton onClick={() => onOpen(breach.ticketUuid)} data-testid="sla-breach-item" data-ticket-uuid={breach.ticketUuid} divider>
            <ListItemIcon sx={{ minWidth: 40 }}>
              <ErrorOutlineIcon sx={{ color: 'error.main' }} />
            </ListItemIcon>
            <ListItemText
              primary={t(`sla.bell.${breach.kind}`, { name: breach.contactName })}
              secondary={[breach.queueName, t('sla.bell.at', { when: formatDateTime(breach.dueAt) })].filter(Boolean).join(' · ')}
              slotProps={{ primary: { noWrap: true }, secondary: { noWrap: true } }}
            />
          </ListItemButton>
        </ListItem>
      ))}
    </>
  );
}
