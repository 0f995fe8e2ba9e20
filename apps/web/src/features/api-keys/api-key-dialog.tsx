import { API_KEY_SCOPES, type ApiKeyScope, type CreatedApiKey } from '@atende/shared';
import { Checkbox, Dialog, DialogContent, DialogTitle, FormControl, FormControlLabel, FormGroup, FormHelperText, FormLabel, Stack, TextField } from '@mui/material';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError } from '../../components/toast';
import { endOfDay, scopeText } from './api-keys-queries';

/** Create a company API key: name, scopes, optional expiry day. Mounted while open, so closing resets it. */
export function ApiKeyDialog({ onCreated, onClose }: { onCreated(key: CreatedApiKey): void; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<ApiKeyScope[]>([]);
  const [expiresOn, setExpiresOn] = useState('');
  const [tried, setTried] = useState(false);
  const [saving, setSaving] = useState(false);
  const nameMissing = name.trim() === '';
  const scopesMissing = scopes.length === 0;
  const today = new Date();
  const tomorrow = new Date(today.getFullYear(), today.getMonth(), today.getDate() + 1);
  const minDate = `${tomorrow.getFullYear()}-${String(tomorrow.getMonth() + 1).padStart(2, '0')}-${String(tomorrow.getDate()).padStart(2, '0')}`;

  const toggle = (scope: ApiKeyScope, on: boolean) => setScopes((current) => (on ? API_KEY_SCOPES.filter((s) => s === scope || current.includes(s)) : current.filter((s) => s !== scope)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (nameMissing || scopesMissing) return;
    setSaving(true);
    try {
      onCreated(await api.post<CreatedApiKey>('/api-keys', { name: name.trim(), scopes, ...(expiresOn ? { expiresAt: endOfDay(expiresOn) } : {}) }));
    } catch (error) {
      toastError(error);
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" data-testid="api-key-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle>{t('apiKeys.dialog.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('apiKeys.dialog.name')}
              value={name}
              onChange={(event) => setName(event.target.value)}
              error={tried && nameMissing}
              helperText={tried && nameMissing ? t('validation.required') : t('apiKeys.dialog.nameHint')}
              required
              autoFocus
              fullWidth
              slotProps={{ htmlInput: { maxLength: 100, 'data-testid': 'api-key-name' } }}
            />
            <FormControl error={tried && scopesMissing} component="fieldset" required>
              <FormLabel component="legend">{t('apiKeys.dialog.scopes')}</FormLabel>
              <FormGroup>
                {API_KEY_SCOPES.map((scope) => (
                  <FormControlLabel
                    key={scope}
                    control={<Checkbox checked={scopes.includes(scope)} onChange={(event) => toggle(scope, event.target.checked)} slotProps={{ input: { 'data-testid': `api-key-scope-${scope}` } as object }} />}
                    label={
                      <span>
                        <code>{scope}</code> · {t(scopeText(scope))}
                      </span>
                    }
                  />
                ))}
              </FormGroup>
              <FormHelperText>{t('apiKeys.dialog.scopesHint')}</FormHelperText>
            </FormControl>
            <TextField
              type="date"
              label={t('apiKeys.dialog.expiresAt')}
              value={expiresOn}
              onChange={(event) => setExpiresOn(event.target.value)}
              helperText={t('apiKeys.dialog.expiresHint')}
              fullWidth
              slotProps={{ inputLabel: { shrink: true }, htmlInput: { min: minDate, 'data-testid': 'api-key-expires' } }}
            />
          </Stack>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} cancelTestId="api-key-cancel" saveTestId="api-key-save" saveLabel={t('apiKeys.dialog.create')} />
      </form>
    </Dialog>
  );
}
