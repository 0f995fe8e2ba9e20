import { zodResolver } from '@hookform/resolvers/zod';
import AttachFile from '@mui/icons-material/AttachFile';
import Close from '@mui/icons-material/Close';
import Send from '@mui/icons-material/Send';
import { Box, Button, Chip, CircularProgress, FormHelperText, Stack, TextField, Typography } from '@mui/material';
import { useRef, type FormEvent, type ReactNode } from 'react';
import { Controller, useForm, type FieldError, type UseFormRegisterReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { HiddenFileInput } from '../../components/hidden-file-input';
import { toastError, toastSuccess } from '../../components/toast';
import {
  MediaTestForm,
  sendExternalMessage,
  TextTestForm,
  type ExternalSendRequest,
  type MediaTestInput,
  type MediaTestValues,
  type TextTestInput,
  type TextTestValues,
} from './external-send';

/** Validation messages are translation keys; anything else is shown as it is. */
function useFieldMessage() {
  const { t, i18n } = useTranslation();
  return (error?: FieldError) => (error?.message ? (i18n.exists(error.message) ? t(error.message) : error.message) : undefined);
}

interface TestFormProps {
  /** `text-test` or `media-test`: the test ids of the form and its fields start with it. */
  testIdPrefix: string;
  onSubmit(event: FormEvent): void;
  busy: boolean;
  token: UseFormRegisterReturn;
  number: UseFormRegisterReturn;
  errors: { token?: FieldError; number?: FieldError };
  /** The fields between the number and the send button. */
  children: ReactNode;
}

/** A test form: its heading, the connection token and the number, the form's own fields, and the send button. */
function TestForm({ testIdPrefix, onSubmit, busy, token, number, errors, children }: TestFormProps) {
  const { t } = useTranslation();
  const message = useFieldMessage();
  return (
    <Box component="form" onSubmit={onSubmit} noValidate data-testid={`${testIdPrefix}-form`}>
      <Typography variant="subtitle1" component="h3" sx={{ fontWeight: 600, mb: 1.5 }}>
        {t('messagesApi.test.title')}
      </Typography>
      <Stack spacing={2}>
        <TextField
          label={t('messagesApi.test.token')}
          {...token}
          required
          error={Boolean(errors.token)}
          helperText={message(errors.token) ?? t('messagesApi.test.tokenHelp')}
          slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false, maxLength: 200, 'data-testid': `${testIdPrefix}-token` } }}
        />
        <TextField
          label={t('messagesApi.test.number')}
          {...number}
          required
          error={Boolean(errors.number)}
          helperText={message(errors.number) ?? t('messagesApi.test.numberHelp')}
          slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'off', maxLength: 30, 'data-testid': `${testIdPrefix}-number` } }}
        />
        {children}
        <Box>
          <Button type="submit" variant="contained" disabled={busy} startIcon={busy ? <CircularProgress size={18} color="inherit" /> : <Send />} data-testid={`${testIdPrefix}-send`}>
            {t('messagesApi.test.send')}
          </Button>
        </Box>
      </Stack>
    </Box>
  );
}

/** Sends a test message and says so, then `onSent` clears what the next test does not reuse; a refusal is an error toast. */
function useSendTest() {
  const { t } = useTranslation();
  return async (request: ExternalSendRequest, onSent: () => void) => {
    try {
      await sendExternalMessage(request);
      toastSuccess(t('messagesApi.test.sent'));
      onSent();
    } catch (error) {
      toastError(error);
    }
  };
}

/** Spec part 2 §2.14: the text test sends `{number, body}` as JSON with the token as bearer. */
export function TextTestFormCard() {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const send = useSendTest();
  const form = useForm<TextTestInput, unknown, TextTestValues>({ resolver: zodResolver(TextTestForm), defaultValues: { token: '', number: '', body: '' } });
  const { errors, isSubmitting } = form.formState;

  // Token and number stay for the next test. The number goes as typed, checked first with the API's own schema: the
  // server normalises it, and a '+' the normalised digits would lose still tells it the country.
  const submit = form.handleSubmit(({ token, body }) => send({ token, number: form.getValues('number'), body }, () => form.resetField('body')));

  return (
    <TestForm testIdPrefix="text-test" onSubmit={submit} busy={isSubmitting} token={form.register('token')} number={form.register('number')} errors={errors}>
      <TextField
        label={t('messagesApi.test.body')}
        {...form.register('body')}
        required
        multiline
        minRows={2}
        maxRows={8}
        error={Boolean(errors.body)}
        helperText={message(errors.body)}
        slotProps={{ htmlInput: { maxLength: 4096, 'data-testid': 'text-test-body' } }}
      />
    </TestForm>
  );
}

/** Spec part 2 §2.14: the media test sends multipart `number`, `body` (an optional caption) and the file in `medias`. */
export function MediaTestFormCard() {
  const { t } = useTranslation();
  const message = useFieldMessage();
  const send = useSendTest();
  const fileInput = useRef<HTMLInputElement>(null);
  const form = useForm<MediaTestInput, unknown, MediaTestValues>({
    resolver: zodResolver(MediaTestForm),
    defaultValues: { token: '', number: '', body: '', file: undefined },
  });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(({ token, body, file }) =>
    send({ token, number: form.getValues('number'), body, files: [file] }, () => {
      form.resetField('body');
      form.resetField('file');
    }),
  );

  return (
    <TestForm testIdPrefix="media-test" onSubmit={submit} busy={isSubmitting} token={form.register('token')} number={form.register('number')} errors={errors}>
      <TextField
        label={t('messagesApi.test.caption')}
        {...form.register('body')}
        error={Boolean(errors.body)}
        helperText={message(errors.body)}
        slotProps={{ htmlInput: { maxLength: 4096, 'data-testid': 'media-test-body' } }}
      />
      <Controller
        control={form.control}
        name="file"
        render={({ field, fieldState }) => {
          const file = field.value instanceof File ? field.value : null;
          return (
            <Box>
              {file ? (
                <Chip
                  icon={<AttachFile />}
                  label={file.name}
                  onDelete={() => field.onChange(undefined)}
                  deleteIcon={<Close aria-label={t('messagesApi.test.removeFile', { name: file.name })} />}
                  data-testid="media-test-file-chip"
                  sx={{ maxWidth: '100%' }}
                />
              ) : (
                <Button variant="outlined" color={fieldState.error ? 'error' : 'primary'} startIcon={<AttachFile />} onClick={() => fileInput.current?.click()} data-testid="media-test-choose">
                  {t('messagesApi.test.chooseFile')}
                </Button>
              )}
              <HiddenFileInput inputRef={fileInput} testId="media-test-file" onPick={field.onChange} />
              {fieldState.error ? <FormHelperText error>{message(fieldState.error)}</FormHelperText> : null}
            </Box>
          );
        }}
      />
    </TestForm>
  );
}
