import type { IntegrationType } from '@atende/shared';
import { Box } from '@mui/material';
import { useTranslation } from 'react-i18next';
import dialogflowLogo from './logos/dialogflow.svg';
import n8nLogo from './logos/n8n.svg';
import typebotLogo from './logos/typebot.svg';
import webhookLogo from './logos/webhook.svg';

const LOGOS: Record<IntegrationType, string> = { dialogflow: dialogflowLogo, n8n: n8nLogo, webhook: webhookLogo, typebot: typebotLogo };

/** The type's image (spec part 2 §2.13: one each for dialogflow, n8n, webhook and typebot). */
export function IntegrationLogo({ type, size = 32 }: { type: IntegrationType; size?: number }) {
  const { t } = useTranslation();
  return <Box component="img" src={LOGOS[type]} alt={t(`integrations.types.${type}`)} title={t(`integrations.types.${type}`)} sx={{ width: size, height: size, display: 'block' }} />;
}
