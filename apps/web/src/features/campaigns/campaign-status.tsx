import type { CampaignStatus } from '@atende/shared';
import { Chip } from '@mui/material';
import { useTranslation } from 'react-i18next';

const COLORS: Record<CampaignStatus, 'default' | 'info' | 'warning' | 'error' | 'success'> = {
  INATIVA: 'default',
  PROGRAMADA: 'info',
  EM_ANDAMENTO: 'warning',
  CANCELADA: 'error',
  FINALIZADA: 'success',
};

/** A campaign's state as a coloured chip (spec part 2 §4). */
export function CampaignStatusChip({ status }: { status: CampaignStatus }) {
  const { t } = useTranslation();
  return <Chip size="small" color={COLORS[status]} label={t(`campaigns.status.${status}`)} data-testid="campaign-status" data-status={status} />;
}
