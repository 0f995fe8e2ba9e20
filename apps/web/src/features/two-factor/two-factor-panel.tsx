import type { TwoFactorEnableAnswer, TwoFactorSetupAnswer } from '@atende/shared';
import ContentCopy from '@mui/icons-material/ContentCopy';
import Download from '@mui/icons-material/Download';
import { Alert, Box, Button, CircularProgress, Stack, TextField, Typography } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { PasswordField } from '../../components/password-field';
import { QrCodeImage } from '../../components/qr-code-image';
import { toastError, toastSuccess } from '../../components/toast';
import { twoFactorKey, useTwoFactorStatus } from './two-factor-queries';

/** The recovery codes, once: listed, copied or downloaded as a text file. */
function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone(): void }) {
  const { t } = useTranslation();
  const text = codes.join('\n');
  const copy = () => {
    navigator.clipboard.writeText(text).then(
      () => toastSuccess(t('twoFactor.copied')),
      (error: unknown) => toastError(error),
    );
  };
  const download = () => {
    const url = URL.createObjectURL(new Blob([`${text}\n`], { type: 'text/plain' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = 'atende-recovery-codes.txt';
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <Stack spacing={2}>
      <Typography variant="subtitle1" component="h3">
        {t('twoFactor.recoveryTitle')}
      </Typography>
      <Alert severity="warning">{t('twoFactor.recoveryIntro')}</Alert>
      <Box
        component="ul"
        data-testid="two-factor-recovery-codes"
        sx={{ listStyle: 'none', p: 1.5, m: 0, display: 'grid', gridTemplateColumns: 'repeat(2, 1fr)', gap: 1, fontFamily: 'monospace', fontSize: '1rem', bgcolor: 'action.hover', borderRadius: 1 }}
      >
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </Box>
      <Stack direction="row" spacing={1} sx={{ flexWrap: 'wrap' }}>
        <Button startIcon={<ContentCopy />} onClick={copy} data-testid="two-factor-copy">
          {t('twoFactor.copy')}
        </Button>
        <Button startIcon={<Download />} onClick={download} data-testid="two-factor-download">
          {t('twoFactor.download')}
        </Button>
        <Box sx={{ flexGrow: 1 }} />
        <Button variant="contained" onClick={onDone} data-testid="two-factor-done">
          {t('twoFactor.done')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** The new secret as a QR code and as text, and the first code that turns the factor on. */
function SetUpStep({ setup, onEnabled }: { setup: TwoFactorSetupAnswer; onEnabled(codes: string[]): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!/^\d{6}$/.test(typed)) {
      setError(t('twoFactor.codeHint'));
      return;
    }
    setSaving(true);
    try {
      const answer = await api.post<TwoFactorEnableAnswer>('/auth/2fa/enable', { code: typed });
      toastSuccess(t('twoFactor.enabled'));
      onEnabled(answer.recoveryCodes);
    } catch (failure) {
      toastError(failure);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={(event: FormEvent<HTMLFormElement>) => void submit(event)} noValidate>
      <Typography variant="body2">{t('twoFactor.scan')}</Typography>
      <Box sx={{ display: 'flex', justifyContent: 'center' }}>
        <QrCodeImage value={setup.otpauthUrl} label={t('twoFactor.qrAlt')} testId="two-factor-qr" errorCorrectionLevel="M" />
      </Box>
      <TextField
        label={t('twoFactor.secret')}
        value={setup.secret.replace(/(.{4})(?=.)/g, '$1 ')}
        slotProps={{ input: { readOnly: true, sx: { fontFamily: 'monospace' } }, htmlInput: { 'data-testid': 'two-factor-secret', 'data-secret': setup.secret } }}
        fullWidth
      />
      <TextField
        label={t('twoFactor.code')}
        value={code}
        autoFocus
        autoComplete="one-time-code"
        onChange={(event) => {
          setCode(event.target.value);
          setError(undefined);
        }}
        error={Boolean(error)}
        helperText={error ?? t('twoFactor.codeHint')}
        slotProps={{ htmlInput: { inputMode: 'numeric', maxLength: 7, 'data-testid': 'two-factor-code' } }}
        fullWidth
      />
      <Button type="submit" variant="contained" disabled={saving} data-testid="two-factor-enable">
        {t('twoFactor.enable')}
      </Button>
    </Stack>
  );
}

/** Turning the factor off: a code (or a recovery code), or the password. */
function DisableForm() {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [code, setCode] = useState('');
  const [password, setPassword] = useState('');
  const [saving, setSaving] = useState(false);
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = code.replace(/\s+/g, '');
    if (!typed && !password) return;
    setSaving(true);
    try {
      await api.post('/auth/2fa/disable', typed ? { code: typed } : { password });
      toastSuccess(t('twoFactor.disabled'));
      setCode('');
      setPassword('');
      await queryClient.invalidateQueries({ queryKey: twoFactorKey });
    } catch (failure) {
      toastError(failure);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Stack component="form" spacing={2} onSubmit={(event: FormEvent<HTMLFormElement>) => void submit(event)} noValidate>
      <Typography variant="subtitle1" component="h3">
        {t('twoFactor.disableTitle')}
      </Typography>
      <Typography variant="body2" color="text.secondary">
        {t('twoFactor.disableHint')}
      </Typography>
      <TextField
        label={t('twoFactor.codeOrRecovery')}
        value={code}
        autoComplete="one-time-code"
        onChange={(event) => setCode(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 64, 'data-testid': 'two-factor-disable-code' } }}
        fullWidth
      />
      <PasswordField
        label={t('twoFactor.password')}
        value={password}
        autoComplete="current-password"
        onChange={(event) => setPassword(event.target.value)}
        slotProps={{ htmlInput: { maxLength: 128, 'data-testid': 'two-factor-disable-password' } }}
        fullWidth
      />
      <Button type="submit" variant="outlined" color="error" disabled={saving || (!code.trim() && !password)} data-testid="two-factor-disable">
        {t('twoFactor.disable')}
      </Button>
    </Stack>
  );
}

/**
 * The signed-in user's two-factor sign-in: its state, the set-up (QR code, key, first
 * code), the recovery codes shown once, and turning it off. `onDone` runs when the user
 * closes the recovery codes (the forced set-up page then lets the app in).
 */
export function TwoFactorPanel({ onDone }: { onDone?(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const status = useTwoFactorStatus();
  const [setup, setSetup] = useState<TwoFactorSetupAnswer | null>(null);
  const [codes, setCodes] = useState<string[] | null>(null);
  const [starting, setStarting] = useState(false);

  const start = async () => {
    setStarting(true);
    try {
      setSetup(await api.post<TwoFactorSetupAnswer>('/auth/2fa/setup'));
    } catch (error) {
      toastError(error);
    } finally {
      setStarting(false);
    }
  };
  const finish = () => {
    setCodes(null);
    setSetup(null);
    void queryClient.invalidateQueries({ queryKey: twoFactorKey });
    onDone?.();
  };

  if (codes) return <RecoveryCodes codes={codes} onDone={finish} />;
  if (status.isPending) {
    return (
      <Box sx={{ display: 'flex', justifyContent: 'center', py: 3 }}>
        <CircularProgress aria-label={t('twoFactor.title')} />
      </Box>
    );
  }
  if (status.isError) return <Alert severity="error">{t('twoFactor.loadError')}</Alert>;
  const { enabled, required, recoveryCodesLeft } = status.data;
  return (
    <Stack spacing={2} data-testid="two-factor-panel">
      <Typography variant="body2">{t('twoFactor.intro')}</Typography>
      <Alert severity={enabled ? 'success' : 'info'} data-testid="two-factor-status">
        {enabled ? t('twoFactor.statusOn', { count: recoveryCodesLeft }) : t('twoFactor.statusOff')}
      </Alert>
      {required ? <Alert severity="warning">{t('twoFactor.requiredByCompany')}</Alert> : null}
      {enabled ? (
        required ? null : (
          <DisableForm />
        )
      ) : setup ? (
        <SetUpStep setup={setup} onEnabled={setCodes} />
      ) : (
        <Button variant="contained" onClick={() => void start()} disabled={starting} data-testid="two-factor-start" sx={{ alignSelf: 'flex-start' }}>
          {t('twoFactor.start')}
        </Button>
      )}
    </Stack>
  );
}
