import AlarmIcon from '@mui/icons-material/Alarm';
import { IconButton } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useTranslation } from 'react-i18next';

/** The tickets manager's "closest to breach" order (issue 35), a pressed/unpressed button. */
export function SlaSortToggle({ active, onChange }: { active: boolean; onChange(active: boolean): void }) {
  const { t } = useTranslation();
  const label = active ? t('sla.sort.default') : t('sla.sort.closest');
  return (
    <Tooltip title={label}>
      <IconButton size="small" aria-label={t('sla.sort.closest')} aria-pressed={active} color={active ? 'primary' : 'default'} onClick={() => onChange(!active)} data-testid="sort-sla">
        <AlarmIcon fontSize="small" />
      </IconButton>
    </Tooltip>
  );
}
