import { WEBHOOK_EVENTS, type CreatedWebhook, type Webhook, type WebhookEvent } from '@atende/shared';
import { Checkbox, Dialog, DialogContent, DialogTitle, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError } from '../../components/toast';
import { eventText, isWebhookUrl } from './webhooks-queries';

interface WebhookDialogProps {
  /** The webhook to edit; without it, the dialog creates one. */
  webhook?: Webhook;
  /** The server's answer: a created webhook carries its secret. */
  onSaved(webhook: Webhook | CreatedWebhook): void;
  onClose(): void;
}

/** Create or edit a webhook: its address, the events it receives, a description. Mounted while open, so closing resets it. */
export function WebhookDialog({ webhook, onSaved, onClose }: WebhookDialogProps) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [url, setUrl] = useState(webhook?.url ?? '');
  const [events, setEvents] = useState<WebhookEvent[]>(webhook?.events ?? []);
  const [description, setDescription] = useState(webhook?.description ?? '');
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const urlInvalid = !isWebhookUrl(url.trim());
  const eventsMissing = events.length === 0;

  const toggle = (event: WebhookEvent, on: boolean) => setEvents((current) => (on ? WEBHOOK_EVENTS.filter((e) => e === event || current.includes(e)) : current.filter((e) => e !== event)));

  const submit = async (formEvent: FormEvent) => {
    formEvent.preventDefault();
    setTried(true);
    if (urlInvalid || eventsMissing) return;
    setSaving(true);
    const body = { url: url.trim(), events, description: description.trim() };
    try {
      onSaved(webhook ? await api.put<Webhook>(`/webhooks/${webhook.id}`, body) : await api.post<CreatedWebhook>('/webhooks', body));
    } catch (error) {
      toastError(error);
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" data-testid="webhook-dialog">
      <form onSubmit={(formEvent) => void submit(formEvent)} noValidate>
        <DialogTitle>{t(webhook ? 'webhooks.dialog.editTitle' : 'webhooks.dialog.createTitle')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              type="url"
              label={t('webhooks.dialog.url')}
              value={url}
              onChange={(changed) => setUrl(changed.target.value)}
              error={tried && urlInvalid}
              helperText={tried && urlInvalid ? t('webhooks.dialog.urlInvalid') : t('webhooks.dialog.urlHint')}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 2048, 'data-testid': 'webhook-url', inputMode: 'url' } }}
            />
            <FormControl error={tried && eventsMissing} component="fieldset" required>
              <FormLabel component="legend">{t('webhooks.dialog.events')}</FormLabel>
              <FormGroup>
                {WEBHOOK_EVENTS.map((event) => (
                  <FormControlLabel
                    key={event}
                    control={<Checkbox checked={events.includes(event)} onChange={(changed) => toggle(event, changed.target.checked)} slotProps={{ input: { 'data-testid': `webhook-event-${event}` } as object }} />}
                    label={
                      <span>
                        {t(eventText(event))} · <code>{event}</code>
                      </span>
                    }
                  />
                ))}
              </FormGroup>
              <FormHelperText>{t('webhooks.dialog.eventsHint')}</FormHelperText>
            </FormControl>
            <TextField
              label={t('webhooks.dialog.description')}
              value={description}
              onChange={(changed) => setDescription(changed.target.value)}
              helperText={t('webhooks.dialog.descriptionHint')}
              fullWidth
              slotProps={{ htmlInput: { maxLength: 200, 'data-testid': 'webhook-description' } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} cancelTestId="webhook-cancel" saveTestId="webhook-save" saveLabel={webhook ? undefined : t('webhooks.dialog.create')} />
      </form>
    </Dialog>
  );
}
