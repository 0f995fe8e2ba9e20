import type { CreatedWebhook, Webhook } from '@atende/shared';
import ListAlt from '@mui/icons-material/ListAlt';
import { Alert, Chip, IconButton, Stack, Switch, TableCell, TableRow, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { AddButton, ListTable } from '../../components/list-page-parts';
import { RowActionsCell } from '../../components/row-actions';
import { SecretDialog } from '../../components/secret-dialog';
import { TableStatus } from '../../components/table-status';
import { toastError, toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { WebhookDeliveriesDialog } from './webhook-deliveries-dialog';
import { WebhookDialog } from './webhook-dialog';
import { eventText, useWebhookEvents, useWebhooks, webhookKeys, webhookStatus, withWebhook } from './webhooks-queries';

const STATUS_COLOR = { active: 'success', paused: 'default', failing: 'error' } as const;

/**
 * Settings → Webhooks (admins, issue 34): the company's event webhooks with their
 * events, on/off switch and state (turned off by the server after failures is shown
 * as such); create one (its signing secret shown once), edit, delete, and each one's
 * delivery log with "send again".
 */
export function WebhooksTab() {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const webhooks = useWebhooks();
  useWebhookEvents();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [switching, setSwitching] = useState<number | null>(null);
  const deletion = useDeleteConfirmation<Webhook>({
    path: (webhook) => `/webhooks/${webhook.id}`,
    onDeleted: (webhook) => {
      queryClient.setQueryData<Webhook[]>(webhookKeys.list, (list) => list?.filter((item) => item.id !== webhook.id));
      toastSuccess(t('webhooks.deleted'));
    },
    title: (webhook) => t('webhooks.deleteTitle', { url: webhook?.url ?? '' }),
    message: t('webhooks.deleteMessage'),
  });
  const list = webhooks.data ?? [];

  const saved = (webhook: Webhook | CreatedWebhook) => {
    const { secret: shown, ...listed } = webhook as CreatedWebhook;
    queryClient.setQueryData<Webhook[]>(webhookKeys.list, (current) => withWebhook(current, listed));
    setEditing(null);
    if (shown) setSecret(shown);
    else toastSuccess(t('webhooks.saved'));
  };

  const setEnabled = async (webhook: Webhook, enabled: boolean) => {
    setSwitching(webhook.id);
    try {
      const updated = await api.put<Webhook>(`/webhooks/${webhook.id}`, { enabled });
      queryClient.setQueryData<Webhook[]>(webhookKeys.list, (current) => withWebhook(current, updated));
      toastSuccess(t(enabled ? 'webhooks.enabledNow' : 'webhooks.disabledNow'));
    } catch (error) {
      toastError(error);
    } finally {
      setSwitching(null);
    }
  };

  return (
    <Stack spacing={2} data-testid="webhooks-tab">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 720 }}>
          {t('webhooks.intro')}
        </Typography>
        <AddButton label={t('webhooks.add')} onClick={() => setEditing('new')} testId="webhook-add" sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }} />
      </Stack>
      {webhooks.isError ? <Alert severity="error">{t('webhooks.loadError')}</Alert> : null}
      <ListTable
        head={
          <>
            <TableCell>{t('webhooks.columns.url')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('webhooks.columns.events')}</TableCell>
            <TableCell>{t('webhooks.columns.enabled')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('webhooks.columns.status')}</TableCell>
            <TableCell align="right">{t('webhooks.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={webhooks.isPending} failed={webhooks.isError} empty={list.length === 0} emptyText={t('webhooks.empty')} emptyTestId="webhooks-empty" />}
      >
        {list.map((webhook) => {
          const status = webhookStatus(webhook);
          const statusChip = (
            <Chip
              size="small"
              color={STATUS_COLOR[status]}
              label={t(`webhooks.status.${status}`)}
              title={status === 'failing' ? t('webhooks.failingHint', { reason: webhook.disabledReason ?? '' }) : undefined}
              data-testid="webhook-status"
            />
          );
          return (
            <TableRow key={webhook.id} hover data-testid="webhook-row" data-webhook-id={webhook.id} data-webhook-url={webhook.url} data-webhook-status={status}>
              <TableCell sx={{ wordBreak: 'break-all', minWidth: 120 }}>
                <Typography variant="body2" sx={{ fontFamily: 'monospace' }}>
                  {webhook.url}
                </Typography>
                {webhook.description ? (
                  <Typography variant="caption" color="text.secondary" sx={{ wordBreak: 'break-word' }}>
                    {webhook.description}
                  </Typography>
                ) : null}
                {/* On phones the status column is hidden: the state goes under the address. */}
                <Stack direction="row" sx={{ display: { xs: 'flex', sm: 'none' }, mt: 0.5 }}>
                  {statusChip}
                </Stack>
                {status === 'failing' ? (
                  <Typography variant="caption" color="error" component="div" sx={{ wordBreak: 'break-word' }} data-testid="webhook-failing-reason">
                    {t('webhooks.failingHint', { reason: webhook.disabledReason ?? '' })}
                  </Typography>
                ) : null}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                  {webhook.events.map((event) => (
                    <Chip key={event} size="small" variant="outlined" label={t(eventText(event))} title={event} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell padding="checkbox">
                <Switch
                  checked={webhook.enabled}
                  disabled={switching === webhook.id}
                  onChange={(event) => void setEnabled(webhook, event.target.checked)}
                  slotProps={{ input: { 'aria-label': t('webhooks.enable', { url: webhook.url }), 'data-testid': 'webhook-enabled' } as object }}
                />
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{statusChip}</TableCell>
              <RowActionsCell testIdPrefix="webhook" onEdit={() => setEditing(webhook)} onDelete={() => deletion.ask(webhook)}>
                <Tooltip title={t('webhooks.deliveries')}>
                  <IconButton size="small" aria-label={t('webhooks.deliveries')} onClick={() => setLog(webhook)} data-testid="webhook-deliveries">
                    <ListAlt fontSize="small" />
                  </IconButton>
                </Tooltip>
              </RowActionsCell>
            </TableRow>
          );
        })}
      </ListTable>

      {editing ? <WebhookDialog webhook={editing === 'new' ? undefined : editing} onSaved={saved} onClose={() => setEditing(null)} /> : null}
      {secret ? <SecretDialog secret={secret} texts="webhooks.secret" testId="webhook-secret" onClose={() => setSecret(null)} /> : null}
      {log ? <WebhookDeliveriesDialog webhook={log} onClose={() => setLog(null)} /> : null}
      {deletion.dialog}
    </Stack>
  );
}
