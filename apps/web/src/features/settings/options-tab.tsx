import { SETTING_MAX_LENGTH, type SettingKey } from '@atende/shared';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Box, Button, CircularProgress, IconButton, InputAdornment, MenuItem, Stack, TextField, Tooltip } from '@mui/material';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../components/toast';
import { CHOICE_SETTINGS, settingChoices, shownSettingValue, textSettingValue, type ChoiceSetting } from './setting-options';
import { settingValue, useSaveSetting, type Setting } from './settings-queries';

/**
 * The Options tab (spec part 2 §2.15, §5; part 1 §9): every company option as a
 * choice saved the moment it changes, and the billing token saved by its
 * button. A field shows the value being saved, with a spinner, until the
 * server answers; a refused change returns to the stored value.
 */
export function OptionsTab({ settings, readOnly }: { settings: readonly Setting[]; readOnly: boolean }) {
  const { t } = useTranslation();
  const { pending, save } = useSaveSetting();

  const change = async (key: SettingKey, value: string): Promise<boolean> => {
    try {
      await save(key, value);
      toastSuccess(t('settings.saved'));
      return true;
    } catch (error) {
      toastError(error);
      return false;
    }
  };

  return (
    <Stack spacing={3}>
      <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
        {CHOICE_SETTINGS.map((key) => (
          <ChoiceField
            key={key}
            settingKey={key}
            value={shownSettingValue(settings, key, pending)}
            saving={pending[key] !== undefined}
            readOnly={readOnly}
            onChange={(value) => void change(key, value)}
          />
        ))}
      </Box>
      <TokenField stored={settingValue(settings, 'asaas')} saving={pending.asaas !== undefined} readOnly={readOnly} onSave={(value) => change('asaas', value)} />
    </Stack>
  );
}

function ChoiceField({
  settingKey,
  value,
  saving,
  readOnly,
  onChange,
}: {
  settingKey: ChoiceSetting;
  value: string;
  saving: boolean;
  readOnly: boolean;
  onChange(value: string): void;
}) {
  const { t, i18n } = useTranslation();
  const choices = settingChoices(settingKey);
  const label = (choice: string) => (i18n.exists(`settings.values.${choice}`) ? t(`settings.values.${choice}`) : choice);
  return (
    <TextField
      select
      label={t(`settings.options.${settingKey}.label`)}
      helperText={saving ? t('settings.saving') : t(`settings.options.${settingKey}.help`)}
      value={choices.includes(value) ? value : ''}
      onChange={(event) => {
        if (event.target.value !== value) onChange(event.target.value);
      }}
      // A single choice (chatBotType) is shown, not offered.
      disabled={readOnly || saving || choices.length < 2}
      fullWidth
      data-testid={`setting-${settingKey}`}
      data-value={value}
      data-saving={saving ? 'true' : 'false'}
      slotProps={{
        htmlInput: { 'data-testid': `setting-${settingKey}-input` },
        input: saving
          ? {
              endAdornment: (
                <InputAdornment position="end" sx={{ mr: 3 }}>
                  <CircularProgress size={18} aria-label={t('settings.saving')} />
                </InputAdornment>
              ),
            }
          : undefined,
      }}
    >
      {choices.map((choice) => (
        <MenuItem key={choice} value={choice} data-testid={`setting-${settingKey}-${choice}`}>
          {label(choice)}
        </MenuItem>
      ))}
    </TextField>
  );
}

/** The billing integration's token: typed, then saved with its button (a keystroke is not a save). */
function TokenField({ stored, saving, readOnly, onSave }: { stored: string; saving: boolean; readOnly: boolean; onSave(value: string): Promise<boolean> }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<string | null>(null);
  const [visible, setVisible] = useState(false);
  const text = draft ?? stored;
  const value = textSettingValue(text);
  const changed = value !== null && value !== stored;

  const submit = async () => {
    if (value === null || !changed) return;
    // A refused token stays typed, to be corrected.
    if (await onSave(value)) setDraft(null);
  };

  return (
    <Stack
      component="form"
      direction={{ xs: 'column', sm: 'row' }}
      spacing={1}
      sx={{ alignItems: { sm: 'flex-start' }, maxWidth: 720 }}
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <TextField
        label={t('settings.options.asaas.label')}
        helperText={value === null ? t('settings.tokenTooLong', { max: SETTING_MAX_LENGTH }) : t('settings.options.asaas.help')}
        error={value === null}
        value={text}
        onChange={(event) => setDraft(event.target.value)}
        disabled={readOnly || saving}
        type={visible ? 'text' : 'password'}
        autoComplete="off"
        fullWidth
        slotProps={{
          htmlInput: { 'data-testid': 'setting-asaas-input', autoComplete: 'off' },
          input: {
            endAdornment: (
              <InputAdornment position="end">
                <Tooltip title={visible ? t('settings.hideToken') : t('settings.showToken')}>
                  <IconButton edge="end" aria-label={visible ? t('settings.hideToken') : t('settings.showToken')} onClick={() => setVisible((v) => !v)}>
                    {visible ? <VisibilityOff /> : <Visibility />}
                  </IconButton>
                </Tooltip>
              </InputAdornment>
            ),
          },
        }}
      />
      {readOnly ? null : (
        <Button type="submit" variant="contained" disabled={saving || !changed} sx={{ minWidth: 140, height: { sm: 56 }, flexShrink: 0, whiteSpace: 'nowrap' }} data-testid="setting-asaas-save">
          {saving ? <CircularProgress size={22} aria-label={t('settings.saving')} /> : t('settings.saveToken')}
        </Button>
      )}
    </Stack>
  );
}
