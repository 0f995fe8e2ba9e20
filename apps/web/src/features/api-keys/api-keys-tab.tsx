import type { CreatedApiKey, PresentedApiKey } from '@atende/shared';
import { Alert, Button, Chip, Stack, TableCell, TableRow, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AddButton, ListTable } from '../../components/list-page-parts';
import { SecretDialog } from '../../components/secret-dialog';
import { TableStatus } from '../../components/table-status';
import { toastSuccess } from '../../components/toast';
import { useDeleteConfirmation } from '../../components/use-delete-confirmation';
import { formatDate, formatDateTime } from '../../i18n/dates';
import { ApiKeyDialog } from './api-key-dialog';
import { apiKeysKey, apiKeyStatus, scopeText, useApiKeys } from './api-keys-queries';

const STATUS_COLOR = { active: 'success', revoked: 'default', expired: 'warning' } as const;

/**
 * Settings → API (admins, issue 34): the company's API keys with their scopes, last use
 * (time and address) and state; create one (its secret shown once), revoke one.
 */
export function ApiKeysTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useApiKeys();
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const revocation = useDeleteConfirmation<PresentedApiKey>({
    path: (key) => `/api-keys/${key.id}`,
    onDeleted: () => {
      void queryClient.invalidateQueries({ queryKey: apiKeysKey });
      toastSuccess(t('apiKeys.revoked'));
    },
    title: (key) => t('apiKeys.revokeTitle', { name: key?.name ?? '' }),
    message: t('apiKeys.revokeMessage'),
  });
  const list = keys.data ?? [];

  const created = (key: CreatedApiKey) => {
    const { key: shown, ...listed } = key;
    queryClient.setQueryData<PresentedApiKey[]>(apiKeysKey, (current) => (current ? [listed, ...current] : current));
    setCreating(false);
    setSecret(shown);
  };

  return (
    <Stack spacing={2} data-testid="api-keys-tab">
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2} sx={{ alignItems: { sm: 'center' }, justifyContent: 'space-between' }}>
        <Typography variant="body2" color="text.secondary" sx={{ maxWidth: 720 }}>
          {t('apiKeys.intro')}
        </Typography>
        <AddButton label={t('apiKeys.add')} onClick={() => setCreating(true)} testId="api-key-add" sx={{ flexShrink: 0, alignSelf: { xs: 'flex-start', sm: 'center' } }} />
      </Stack>
      {keys.isError ? <Alert severity="error">{t('apiKeys.loadError')}</Alert> : null}
      <ListTable
        head={
          <>
            <TableCell>{t('apiKeys.columns.name')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>{t('apiKeys.columns.scopes')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }}>{t('apiKeys.columns.lastUsed')}</TableCell>
            <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{t('apiKeys.columns.expires')}</TableCell>
            <TableCell>{t('apiKeys.columns.status')}</TableCell>
            <TableCell align="right">{t('apiKeys.columns.actions')}</TableCell>
          </>
        }
        footer={<TableStatus loading={keys.isPending} failed={keys.isError} empty={list.length === 0} emptyText={t('apiKeys.empty')} emptyTestId="api-keys-empty" />}
      >
        {list.map((key) => {
          const status = apiKeyStatus(key);
          return (
            <TableRow key={key.id} hover data-testid="api-key-row" data-api-key-id={key.id} data-api-key-name={key.name} data-api-key-status={status}>
              <TableCell sx={{ wordBreak: 'break-word' }}>
                <Typography variant="body2" sx={{ fontWeight: 500 }}>
                  {key.name}
                </Typography>
                <Typography variant="caption" color="text.secondary" sx={{ fontFamily: 'monospace' }}>
                  {key.prefix}…
                </Typography>
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', md: 'table-cell' } }}>
                <Stack direction="row" sx={{ flexWrap: 'wrap', gap: 0.5 }}>
                  {key.scopes.map((scope) => (
                    <Chip key={scope} size="small" variant="outlined" label={scope} title={t(scopeText(scope))} />
                  ))}
                </Stack>
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', sm: 'table-cell' } }} data-testid="api-key-last-used">
                {key.lastUsedAt
                  ? key.lastUsedIp
                    ? t('apiKeys.usedFrom', { when: formatDateTime(key.lastUsedAt), address: key.lastUsedIp })
                    : formatDateTime(key.lastUsedAt)
                  : t('apiKeys.never')}
              </TableCell>
              <TableCell sx={{ display: { xs: 'none', lg: 'table-cell' } }}>{key.expiresAt ? formatDate(key.expiresAt) : t('apiKeys.noExpiry')}</TableCell>
              <TableCell>
                <Chip size="small" color={STATUS_COLOR[status]} label={t(`apiKeys.status.${status}`)} />
              </TableCell>
              <TableCell align="right">
                {status === 'revoked' ? null : (
                  <Button size="small" color="error" onClick={() => revocation.ask(key)} data-testid="api-key-revoke">
                    {t('apiKeys.revoke')}
                  </Button>
                )}
              </TableCell>
            </TableRow>
          );
        })}
      </ListTable>

      {creating ? <ApiKeyDialog onCreated={created} onClose={() => setCreating(false)} /> : null}
      {secret ? <SecretDialog secret={secret} texts="apiKeys.secret" testId="api-key-secret" onClose={() => setSecret(null)} /> : null}
      {revocation.dialog}
    </Stack>
  );
}
