import { WEBHOOK_DELIVERY_STATUSES, type RetriedWebhookDelivery, type Webhook, type WebhookDelivery, type WebhookDeliveryStatus } from '@atende/shared';
import Replay from '@mui/icons-material/Replay';
import {
  Alert,
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Paper,
  Stack,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { formatDateTime } from '../../i18n/dates';
import { cacheDelivery, eventText, useWebhookDeliveries } from './webhooks-queries';

const STATUS_COLOR = { pending: 'default', delivered: 'success', failed: 'error' } as const;

/** One delivery: its event, state, attempts, the receiver's answer and times, and "send again". */
function DeliveryItem({ webhookId, delivery }: { webhookId: number; delivery: WebhookDelivery }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [sending, setSending] = useState(false);

  const retry = async () => {
    setSending(true);
    try {
      const retried = await api.post<RetriedWebhookDelivery>(`/webhooks/${webhookId}/deliveries/${delivery.id}/retry`);
      cacheDelivery(queryClient, webhookId, retried.delivery);
      toastSuccess(t('webhooks.log.retried'));
    } catch (error) {
      toastError(error);
    } finally {
      setSending(false);
    }
  };

  const times = [
    t('webhooks.log.created', { when: formatDateTime(delivery.createdAt) }),
    delivery.lastAttemptAt ? t('webhooks.log.lastAttempt', { when: formatDateTime(delivery.lastAttemptAt) }) : null,
    delivery.deliveredAt ? t('webhooks.log.deliveredAt', { when: formatDateTime(delivery.deliveredAt) }) : null,
    delivery.status === 'pending' && delivery.nextAttemptAt ? t('webhooks.log.nextAttempt', { when: formatDateTime(delivery.nextAttemptAt) }) : null,
  ].filter((text): text is string => text !== null);

  return (
    <Paper variant="outlined" sx={{ p: 1.5 }} data-testid="webhook-delivery" data-delivery-id={delivery.id} data-delivery-status={delivery.status} data-event-id={delivery.eventId}>
      <Stack spacing={1}>
        <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
          <Chip size="small" color={STATUS_COLOR[delivery.status]} label={t(`webhooks.log.status.${delivery.status}`)} data-testid="webhook-delivery-status" />
          <Typography variant="body2" sx={{ fontWeight: 500 }}>
            {t(eventText(delivery.event))}
          </Typography>
          <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
            {delivery.event}
          </Typography>
          <Box sx={{ flexGrow: 1 }} />
          <Button size="small" startIcon={sending ? <CircularProgress size={16} /> : <Replay />} disabled={sending} onClick={() => void retry()} data-testid="webhook-delivery-retry">
            {t('webhooks.log.retry')}
          </Button>
        </Stack>
        <Typography variant="body2" color="text.secondary" data-testid="webhook-delivery-summary">
          {[
            t('webhooks.log.attempts', { count: delivery.attempts }),
            delivery.lastStatusCode === null ? (delivery.attempts > 0 ? t('webhooks.log.noAnswer') : null) : t('webhooks.log.answer', { code: delivery.lastStatusCode }),
            delivery.latencyMs === null ? null : t('webhooks.log.latency', { ms: delivery.latencyMs }),
          ]
            .filter((text): text is string => text !== null)
            .join(' · ')}
        </Typography>
        {delivery.lastError ? (
          <Typography variant="body2" color="error" sx={{ wordBreak: 'break-word' }} data-testid="webhook-delivery-error">
            {delivery.lastError}
          </Typography>
        ) : null}
        {delivery.responseExcerpt ? (
          <Box
            component="pre"
            aria-label={t('webhooks.log.excerpt')}
            sx={{ m: 0, p: 1, bgcolor: 'action.hover', borderRadius: 1, fontSize: 12, whiteSpace: 'pre-wrap', wordBreak: 'break-all', maxHeight: 120, overflow: 'auto' }}
            data-testid="webhook-delivery-excerpt"
          >
            {delivery.responseExcerpt}
          </Box>
        ) : null}
        <Typography variant="caption" color="text.secondary">
          {times.join(' · ')}
        </Typography>
      </Stack>
    </Paper>
  );
}

/** A webhook's delivery log (newest first), filtered by status, a page at a time, each delivery with "send again". */
export function WebhookDeliveriesDialog({ webhook, onClose }: { webhook: Webhook; onClose(): void }) {
  const { t } = useTranslation();
  const theme = useTheme();
  const phone = useMediaQuery(theme.breakpoints.down('sm'));
  const [status, setStatus] = useState<WebhookDeliveryStatus | ''>('');
  const pages = useWebhookDeliveries(webhook.id, status);
  const deliveries = pages.data?.pages.flatMap((page) => page.deliveries) ?? [];

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={phone} data-testid="webhook-deliveries-dialog">
      <DialogTitle sx={{ wordBreak: 'break-all' }}>{t('webhooks.log.title', { url: webhook.url })}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={1.5}>
          <TextField
            select
            size="small"
            label={t('webhooks.log.filter')}
            value={status}
            onChange={(event) => setStatus(event.target.value as WebhookDeliveryStatus | '')}
            sx={{ maxWidth: 220 }}
            slotProps={{ select: { displayEmpty: true, SelectDisplayProps: { 'data-testid': 'webhook-deliveries-filter' } as object }, inputLabel: { shrink: true } }}
          >
            <MenuItem value="">{t('webhooks.log.all')}</MenuItem>
            {WEBHOOK_DELIVERY_STATUSES.map((value) => (
              <MenuItem key={value} value={value} data-testid={`webhook-deliveries-filter-${value}`}>
                {t(`webhooks.log.status.${value}`)}
              </MenuItem>
            ))}
          </TextField>
          {deliveries.map((delivery) => (
            <DeliveryItem key={delivery.id} webhookId={webhook.id} delivery={delivery} />
          ))}
          {pages.isPending || pages.isFetchingNextPage ? (
            <Box role="status" sx={{ display: 'flex', justifyContent: 'center', p: 2 }}>
              <CircularProgress size={28} aria-label={t('common.loading')} />
            </Box>
          ) : null}
          {pages.isError ? <Alert severity="error">{t('webhooks.log.loadError')}</Alert> : null}
          {pages.isSuccess && deliveries.length === 0 ? (
            <Typography color="text.secondary" sx={{ p: 2, textAlign: 'center' }} data-testid="webhook-deliveries-empty">
              {t('webhooks.log.empty')}
            </Typography>
          ) : null}
          {pages.hasNextPage && !pages.isFetchingNextPage ? (
            <Box sx={{ display: 'flex', justifyContent: 'center' }}>
              <Button size="small" onClick={() => void pages.fetchNextPage()} data-testid="webhook-deliveries-more">
                {t('common.loadMore')}
              </Button>
            </Box>
          ) : null}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="webhook-deliveries-close">
          {t('webhooks.log.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
