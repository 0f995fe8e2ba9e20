import type { PresentedCloudApiSettings } from '@atende/shared';
import ContentCopy from '@mui/icons-material/ContentCopy';
import { Button, IconButton, InputAdornment, Stack, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../components/toast';
import type { ConnectionFormOutput, ConnectionFormValues } from './connection-form';
import { generateConnectionToken } from './connection-token';

type Form = UseFormReturn<ConnectionFormValues, unknown, ConnectionFormOutput>;

/** The one public webhook path of every Cloud API connection; the server names it in `cloudApi.webhookPath` once a connection exists. */
const DEFAULT_WEBHOOK_PATH = '/cloud-api/webhook';

/**
 * Cloud API settings: ids and verify token in the clear; the access token and
 * app secret are write-only (the server shows them masked, an empty field
 * keeps the stored value). The webhook URL is what the admin pastes into Meta.
 */
export function CloudApiFields({ form, stored, isSuper }: { form: Form; stored: PresentedCloudApiSettings | null | undefined; isSuper: boolean }) {
  const { t } = useTranslation();
  const errors = form.formState.errors.cloudApi;
  const message = (key?: string) => (key ? t(key) : undefined);
  const webhookUrl = `${window.location.origin}${stored?.webhookPath ?? DEFAULT_WEBHOOK_PATH}`;

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(webhookUrl);
      toastSuccess(t('connections.cloudApi.copied'));
    } catch (error) {
      toastError(error);
    }
  };

  const secretHelp = (mask: string | undefined, error?: string) => message(error) ?? (mask ? t('connections.cloudApi.secretKept', { mask }) : undefined);

  return (
    <Stack spacing={2} data-testid="cloud-api-fields">
      <Typography variant="body2" color="text.secondary">
        {t('connections.cloudApi.intro')}
      </Typography>
      <TextField
        label={t('connections.cloudApi.phoneNumberId')}
        {...form.register('cloudApi.phoneNumberId')}
        error={Boolean(errors?.phoneNumberId)}
        helperText={message(errors?.phoneNumberId?.message)}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'cloud-phone-number-id' } }}
      />
      <TextField
        label={t('connections.cloudApi.wabaId')}
        {...form.register('cloudApi.wabaId')}
        error={Boolean(errors?.wabaId)}
        helperText={message(errors?.wabaId?.message)}
        slotProps={{ htmlInput: { inputMode: 'numeric', 'data-testid': 'cloud-waba-id' } }}
      />
      <TextField
        type="password"
        autoComplete="new-password"
        label={t('connections.cloudApi.accessToken')}
        placeholder={stored?.accessToken || undefined}
        {...form.register('cloudApi.accessToken')}
        error={Boolean(errors?.accessToken)}
        helperText={secretHelp(stored?.accessToken, errors?.accessToken?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'cloud-access-token' } }}
      />
      <TextField
        type="password"
        autoComplete="new-password"
        label={t('connections.cloudApi.appSecret')}
        placeholder={stored?.appSecret || undefined}
        {...form.register('cloudApi.appSecret')}
        error={Boolean(errors?.appSecret)}
        helperText={secretHelp(stored?.appSecret, errors?.appSecret?.message)}
        slotProps={{ htmlInput: { 'data-testid': 'cloud-app-secret' } }}
      />
      <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
        <TextField
          label={t('connections.cloudApi.verifyToken')}
          {...form.register('cloudApi.verifyToken')}
          error={Boolean(errors?.verifyToken)}
          helperText={message(errors?.verifyToken?.message) ?? t('connections.cloudApi.verifyTokenHelp')}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': 'cloud-verify-token' } }}
        />
        <Button
          sx={{ flexShrink: 0, mt: { sm: 1 } }}
          onClick={() => form.setValue('cloudApi.verifyToken', generateConnectionToken(), { shouldDirty: true, shouldValidate: true })}
          data-testid="cloud-verify-token-generate"
        >
          {t('connections.cloudApi.generateVerifyToken')}
        </Button>
      </Stack>
      {isSuper ? (
        <TextField
          label={t('connections.cloudApi.graphApiBaseUrl')}
          {...form.register('cloudApi.graphApiBaseUrl')}
          error={Boolean(errors?.graphApiBaseUrl)}
          helperText={message(errors?.graphApiBaseUrl?.message) ?? t('connections.cloudApi.graphApiBaseUrlHelp')}
          slotProps={{ htmlInput: { inputMode: 'url', 'data-testid': 'cloud-graph-base-url' } }}
        />
      ) : null}
      <TextField
        label={t('connections.cloudApi.webhookUrl')}
        value={webhookUrl}
        helperText={t('connections.cloudApi.webhookHelp')}
        slotProps={{
          htmlInput: { readOnly: true, 'data-testid': 'cloud-webhook-url' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={t('connections.cloudApi.copy')}>
                  <IconButton edge="end" aria-label={t('connections.cloudApi.copy')} onClick={() => void copy()} data-testid="cloud-webhook-copy">
                    <ContentCopy fontSize="small" />
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
    </Stack>
  );
}
