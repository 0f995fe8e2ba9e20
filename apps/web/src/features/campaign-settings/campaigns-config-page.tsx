import { LONGER_INTERVAL_OPTIONS, MESSAGE_INTERVAL_OPTIONS, type CampaignSettingEntry, type CampaignSettings } from '@atende/shared';
import Delete from '@mui/icons-material/Delete';
import {
  Alert,
  Button,
  Card,
  CardContent,
  IconButton,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { PageLoading } from '../../components/page-loading';
import { toastError, toastSuccess } from '../../components/toast';
import { usePlanGate } from '../../components/use-plan-gate';
import { CAMPAIGN_SETTINGS_KEY, readSettings, useCampaignSettingEntries } from './campaign-settings-queries';

type Caps = CampaignSettings['sendCaps'];
const PROVIDERS: (keyof Caps)[] = ['baileys', 'cloud-api', 'sandbox'];

/**
 * Campaign settings (spec part 2 §2.7, §9): the three intervals with the spec's
 * option lists and help text saying how the engine applies them, the
 * per-connection send cap, and the variables (a key is added only once).
 */
export default function CampaignsConfigPage() {
  const { t } = useTranslation();
  const allowed = usePlanGate('useCampaigns');
  const query = useCampaignSettingEntries(allowed);
  if (!allowed) return null;
  if (query.isPending) return <PageLoading />;
  if (query.isError) return <Alert severity="error" sx={{ m: 2 }}>{t('campaignSettings.loadError')}</Alert>;
  return <SettingsForm initial={readSettings(query.data)} />;
}

function SettingsForm({ initial }: { initial: CampaignSettings }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [settings, setSettings] = useState(initial);
  const [key, setKey] = useState('');
  const [value, setValue] = useState('');
  const [saving, setSaving] = useState(false);
  const duplicate = settings.variables.some((variable) => variable.key === key.trim());

  const save = async () => {
    setSaving(true);
    try {
      const saved = await api.post<CampaignSettingEntry[]>('/campaign-settings', { settings });
      queryClient.setQueryData(CAMPAIGN_SETTINGS_KEY, saved);
      setSettings(readSettings(saved));
      toastSuccess(t('campaignSettings.saved'));
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  const intervalSelect = (field: 'messageInterval' | 'longerIntervalAfter' | 'greaterInterval', options: readonly number[], unit: 'seconds' | 'messages') => (
    <TextField
      select
      label={t(`campaignSettings.${field}`)}
      value={settings[field]}
      onChange={(event) => setSettings({ ...settings, [field]: Number(event.target.value) })}
      helperText={t(`campaignSettings.help.${field}`)}
      slotProps={{ htmlInput: { 'data-testid': `campaign-settings-${field}` } }}
      sx={{ flex: 1, minWidth: 200 }}
    >
      {options.map((option) => (
        <MenuItem key={option} value={option}>
          {option === 0 ? t('campaignSettings.none') : t(`campaignSettings.${unit}`, { count: option })}
        </MenuItem>
      ))}
    </TextField>
  );

  return (
    <Stack spacing={2} sx={{ p: { xs: 1, sm: 2 }, maxWidth: 1000 }}>
      <Typography variant="h5" component="h1">
        {t('campaignSettings.title')}
      </Typography>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2" gutterBottom>
            {t('campaignSettings.intervals')}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            {intervalSelect('messageInterval', MESSAGE_INTERVAL_OPTIONS, 'seconds')}
            {intervalSelect('longerIntervalAfter', LONGER_INTERVAL_OPTIONS, 'messages')}
            {intervalSelect('greaterInterval', LONGER_INTERVAL_OPTIONS, 'seconds')}
          </Stack>
          <Typography variant="subtitle2" sx={{ mt: 3, mb: 1 }}>
            {t('campaignSettings.caps')}
          </Typography>
          <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
            {PROVIDERS.map((provider) => (
              <TextField
                key={provider}
                type="number"
                label={t(`campaignSettings.capsProvider.${provider}`)}
                value={settings.sendCaps[provider]}
                onChange={(event) => setSettings({ ...settings, sendCaps: { ...settings.sendCaps, [provider]: Math.max(0, Number(event.target.value) || 0) } })}
                slotProps={{ htmlInput: { min: 0, step: 0.5, 'data-testid': `campaign-settings-cap-${provider}` } }}
                sx={{ flex: 1 }}
              />
            ))}
          </Stack>
          <Alert severity="info" sx={{ mt: 2 }}>
            {t('campaignSettings.help.caps')} {t('campaignSettings.help.restart')}
          </Alert>
        </CardContent>
      </Card>
      <Card variant="outlined">
        <CardContent>
          <Typography variant="h6" component="h2">{t('campaignSettings.variables')}</Typography>
          <Typography variant="body2" color="text.secondary" gutterBottom>
            {t('campaignSettings.variablesHint')}
          </Typography>
          <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' }, mt: 1 }}>
            <TextField
              label={t('campaignSettings.key')}
              value={key}
              onChange={(event) => setKey(event.target.value)}
              error={duplicate}
              helperText={duplicate ? t('campaignSettings.duplicateKey') : undefined}
              slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'campaign-variable-key' } }}
            />
            <TextField label={t('campaignSettings.value')} value={value} onChange={(event) => setValue(event.target.value)} sx={{ flex: 1 }} slotProps={{ htmlInput: { maxLength: 1000, 'data-testid': 'campaign-variable-value' } }} />
            <Button
              variant="outlined"
              disabled={!key.trim() || duplicate}
              onClick={() => {
                setSettings({ ...settings, variables: [...settings.variables, { key: key.trim(), value }] });
                setKey('');
                setValue('');
              }}
              data-testid="campaign-variable-add"
            >
              {t('campaignSettings.addVariable')}
            </Button>
          </Stack>
          {settings.variables.length === 0 ? (
            <Typography variant="body2" color="text.secondary" sx={{ mt: 2 }}>
              {t('campaignSettings.noVariables')}
            </Typography>
          ) : (
            <List dense>
              {settings.variables.map((variable) => (
                <ListItem
                  key={variable.key}
                  data-testid="campaign-variable"
                  secondaryAction={
                    <IconButton
                      edge="end"
                      aria-label={t('campaignSettings.removeVariable', { key: variable.key })}
                      onClick={() => setSettings({ ...settings, variables: settings.variables.filter((v) => v.key !== variable.key) })}
                    >
                      <Delete />
                    </IconButton>
                  }
                >
                  <ListItemText primary={`{${variable.key}}`} secondary={variable.value} slotProps={{ secondary: { sx: { wordBreak: 'break-word' } } }} />
                </ListItem>
              ))}
            </List>
          )}
        </CardContent>
      </Card>
      <Stack direction="row" sx={{ justifyContent: 'flex-end' }}>
        <Button variant="contained" onClick={() => void save()} disabled={saving} data-testid="campaign-settings-save">
          {t('campaignSettings.save')}
        </Button>
      </Stack>
    </Stack>
  );
}
