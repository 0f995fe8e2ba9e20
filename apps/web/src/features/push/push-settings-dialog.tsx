import { PUSH_KINDS, type Language, type PushKind, type PushSettings } from '@atende/shared';
import { Alert, Box, Button, CircularProgress, Dialog, DialogActions, DialogContent, DialogTitle, FormControlLabel, FormGroup, FormLabel, Stack, Switch, Typography } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError, toastSuccess } from '../../components/toast';
import { currentSubscription, pushSupported, PushUnavailableError, subscribeThisBrowser, unsubscribeThisBrowser } from './push-client';

const SETTINGS_KEY = ['push-settings'] as const;

/**
 * The user's push notifications (issue 35): whether this browser receives them (the
 * permission is asked only when the user turns them on) and which kinds the user wants,
 * saved at once on the user's profile, for all of its browsers.
 */
function PushSettingsDialog({ open, onClose }: { open: boolean; onClose(): void }) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: () => api.get<PushSettings>('/push/settings'), enabled: open, staleTime: 0 });
  const [subscribed, setSubscribed] = useState<boolean | null>(null);
  const [busy, setBusy] = useState(false);
  const supported = pushSupported();

  useEffect(() => {
    if (!open || !supported) return;
    let live = true;
    void currentSubscription().then(
      (subscription) => live && setSubscribed(subscription !== null),
      () => live && setSubscribed(false),
    );
    return () => {
      live = false;
    };
  }, [open, supported]);

  const store = (next: PushSettings | null) => {
    if (next) queryClient.setQueryData(SETTINGS_KEY, next);
    else void queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
  };

  const turnOn = async () => {
    setBusy(true);
    try {
      store(await subscribeThisBrowser(api, i18n.language as Language));
      setSubscribed(true);
      toastSuccess(t('push.enabled'));
    } catch (error) {
      if (error instanceof PushUnavailableError) toastError(new Error(t(error.reason === 'denied' ? 'push.denied' : error.reason === 'unsupported' ? 'push.unsupported' : 'push.serviceFailed')));
      else toastError(error);
    } finally {
      setBusy(false);
    }
  };
  const turnOff = async () => {
    setBusy(true);
    try {
      store(await unsubscribeThisBrowser(api));
      setSubscribed(false);
      toastSuccess(t('push.disabled'));
    } catch (error) {
      toastError(error);
    } finally {
      setBusy(false);
    }
  };
  const change = async (kind: PushKind, value: boolean) => {
    const before = settings.data;
    if (before) queryClient.setQueryData(SETTINGS_KEY, { ...before, [kind]: value });
    try {
      store(await api.put<PushSettings>('/push/settings', { [kind]: value }));
      toastSuccess(t('push.saved'));
    } catch (error) {
      // A refused change goes back.
      if (before) queryClient.setQueryData(SETTINGS_KEY, before);
      toastError(error);
    }
  };

  const blocked = supported && typeof Notification !== 'undefined' && Notification.permission === 'denied';
  return (
    <Dialog open={open} onClose={onClose} fullWidth maxWidth="sm" data-testid="push-settings-dialog" aria-labelledby="push-settings-title">
      <DialogTitle id="push-settings-title">{t('push.title')}</DialogTitle>
      <DialogContent dividers>
        <Stack spacing={2}>
          <Typography variant="body2" color="text.secondary">
            {t('push.intro')}
          </Typography>
          <Box sx={{ display: 'flex', flexDirection: { xs: 'column', sm: 'row' }, alignItems: { xs: 'stretch', sm: 'center' }, gap: 1.5, justifyContent: 'space-between' }}>
            <Box>
              <Typography variant="subtitle2">{t('push.thisBrowser')}</Typography>
              <Typography variant="body2" color="text.secondary" data-testid="push-browser-status" data-subscribed={subscribed === null ? '' : String(subscribed)}>
                {!supported ? t('push.unsupported') : subscribed ? t('push.subscribed') : t('push.notSubscribed')}
              </Typography>
            </Box>
            {supported ? (
              subscribed ? (
                <Button variant="outlined" onClick={() => void turnOff()} disabled={busy} data-testid="push-disable">
                  {t('push.disable')}
                </Button>
              ) : (
                <Button variant="contained" onClick={() => void turnOn()} disabled={busy || subscribed === null || blocked} data-testid="push-enable" startIcon={busy ? <CircularProgress size={16} color="inherit" /> : undefined}>
                  {t('push.enable')}
                </Button>
              )
            ) : null}
          </Box>
          {blocked ? <Alert severity="warning">{t('push.denied')}</Alert> : null}
          {settings.isPending ? (
            <Box sx={{ display: 'flex', alignItems: 'center', gap: 1 }}>
              <CircularProgress size={20} aria-label={t('push.loading')} />
              <Typography variant="body2">{t('push.loading')}</Typography>
            </Box>
          ) : settings.isError || !settings.data ? (
            <Alert severity="error" action={<Button onClick={() => void settings.refetch()}>{t('push.retry')}</Button>}>
              {t('push.loadFailed')}
            </Alert>
          ) : (
            <>
              <Typography variant="body2" data-testid="push-devices">
                {t('push.devices', { count: settings.data.devices })}
              </Typography>
              <FormGroup>
                <FormLabel component="legend" sx={{ mb: 0.5 }}>
                  {t('push.kinds')}
                </FormLabel>
                {PUSH_KINDS.map((kind) => (
                  <FormControlLabel
                    key={kind}
                    control={<Switch checked={settings.data[kind]} onChange={(event) => void change(kind, event.target.checked)} slotProps={{ input: { 'data-testid': `push-kind-${kind}` } as object }} />}
                    label={t(`push.${kind}`)}
                  />
                ))}
              </FormGroup>
            </>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose} data-testid="push-close">
          {t('push.close')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}

export default PushSettingsDialog;
