import { CHATBOT_TEXT_DEFAULTS, CHATBOT_TEXT_KEYS, CHATBOT_TEXT_LANGUAGES, SETTING_MAX_LENGTH, type ChatbotTextKey, type SettingKey } from '@atende/shared';
import Visibility from '@mui/icons-material/Visibility';
import VisibilityOff from '@mui/icons-material/VisibilityOff';
import { Box, Button, CircularProgress, IconButton, InputAdornment, MenuItem, Stack, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toastError, toastSuccess } from '../../components/toast';
import { CHOICE_SETTINGS, PLATFORM_CHOICE_SETTINGS, settingChoices, shownSettingValue, textSettingValue, type ChoiceSetting } from './setting-options';
import { settingValue, useSaveSetting, type Setting } from './settings-queries';

/**
 * The Options tab (spec part 2 §2.15, §5; part 1 §9): every company option as a
 * choice saved the moment it changes, and the billing token saved by its
 * button. A field shows the value being saved, with a spinner, until the
 * server answers; a refused change returns to the stored value.
 */
export function OptionsTab({ settings, readOnly, isSuper = false }: { settings: readonly Setting[]; readOnly: boolean; isSuper?: boolean }) {
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

  /** A grid of choices, each saved on change. */
  const choiceGrid = (keys: readonly ChoiceSetting[]) => (
    <Box sx={{ display: 'grid', gap: 2, gridTemplateColumns: { xs: '1fr', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' } }}>
      {keys.map((key) => (
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
  );

  return (
    <Stack spacing={3}>
      {choiceGrid(CHOICE_SETTINGS)}
      {isSuper ? (
        <Stack spacing={2} data-testid="setting-platform">
          <Box>
            <Typography variant="subtitle1" component="h2">
              {t('settings.platform.title')}
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {t('settings.platform.hint')}
            </Typography>
          </Box>
          {choiceGrid(PLATFORM_CHOICE_SETTINGS)}
        </Stack>
      ) : null}
      <ChatbotTextsFields
        stored={Object.fromEntries(CHATBOT_TEXT_KEYS.map((key) => [key, settingValue(settings, key)])) as Record<ChatbotTextKey, string>}
        saving={CHATBOT_TEXT_KEYS.some((key) => pending[key] !== undefined)}
        readOnly={readOnly}
        onSave={change}
      />
      <TokenField stored={settingValue(settings, 'asaas')} saving={pending.asaas !== undefined} readOnly={readOnly} onSave={(value) => change('asaas', value)} />
    </Stack>
  );
}

/**
 * The chatbot's menu words as the customer reads them: typed, or filled with
 * the defaults of a language, then saved with their button (changed ones only).
 */
function ChatbotTextsFields({
  stored,
  saving,
  readOnly,
  onSave,
}: {
  stored: Record<ChatbotTextKey, string>;
  saving: boolean;
  readOnly: boolean;
  onSave(key: SettingKey, value: string): Promise<boolean>;
}) {
  const { t } = useTranslation();
  const [drafts, setDrafts] = useState<Partial<Record<ChatbotTextKey, string>>>({});
  const shown = (key: ChatbotTextKey) => drafts[key] ?? stored[key];
  const values = CHATBOT_TEXT_KEYS.map((key) => [key, textSettingValue(shown(key))] as const);
  const invalid = values.some(([, value]) => value === null || value === '');
  const changed = values.filter(([key, value]) => value !== null && value !== stored[key]);

  const submit = async () => {
    if (invalid || changed.length === 0) return;
    for (const [key, value] of changed) {
      if (value === null || !(await onSave(key, value))) return;
      setDrafts((current) => ({ ...current, [key]: undefined }));
    }
  };

  return (
    <Stack
      component="form"
      spacing={2}
      sx={{ maxWidth: 720 }}
      data-testid="setting-chatbot-texts"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Typography variant="subtitle1" component="h2">
        {t('settings.chatbotTexts.title')}
      </Typography>
      {CHATBOT_TEXT_KEYS.map((key) => {
        const value = textSettingValue(shown(key));
        return (
          <TextField
            key={key}
            label={t(`settings.options.${key}.label`)}
            helperText={value === null ? t('settings.tokenTooLong', { max: SETTING_MAX_LENGTH }) : t(`settings.options.${key}.help`)}
            error={value === null || value === ''}
            value={shown(key)}
            onChange={(event) => setDrafts((current) => ({ ...current, [key]: event.target.value }))}
            disabled={readOnly || saving}
            fullWidth
            slotProps={{ htmlInput: { 'data-testid': `setting-${key}-input` } }}
          />
        );
      })}
      {readOnly ? null : (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <Typography variant="body2" color="text.secondary">
            {t('settings.chatbotTexts.defaults')}
          </Typography>
          {CHATBOT_TEXT_LANGUAGES.map((language) => (
            <Button key={language} size="small" variant="outlined" disabled={saving} onClick={() => setDrafts({ ...CHATBOT_TEXT_DEFAULTS[language] })} data-testid={`setting-chatbot-defaults-${language}`}>
              {t(`settings.chatbotTexts.language.${language}`)}
            </Button>
          ))}
          <Box sx={{ flex: 1 }} />
          <Button type="submit" variant="contained" disabled={saving || invalid || changed.length === 0} sx={{ whiteSpace: 'nowrap' }} data-testid="setting-chatbot-texts-save">
            {saving ? <CircularProgress size={22} aria-label={t('settings.saving')} /> : t('settings.chatbotTexts.save')}
          </Button>
        </Stack>
      )}
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
