import type { PresentedConnectionDetail, PresentedQueueSummary } from '@atende/shared';
import AutoAwesome from '@mui/icons-material/AutoAwesome';
import {
  Box,
  Button,
  Chip,
  CircularProgress,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  MenuItem,
  Stack,
  Switch,
  Tab,
  Tabs,
  TextField,
  Typography,
  useMediaQuery,
  useTheme,
} from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type ReactNode } from 'react';
import { Controller, useForm, useWatch, type FieldPath, type UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ApiError, type HttpClient } from '../../api/http-client';
import { useSession } from '../../api/session';
import { AttachmentField, storedAttachment, type Attachment } from '../../components/attachment-field';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { SecretDialog } from '../../components/secret-dialog';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { CloudApiFields } from './cloud-api-fields';
import {
  connectionFormDefaults,
  connectionFormResolver,
  connectionPayload,
  DIALOG_PROVIDERS,
  serverFieldErrors,
  tabOfField,
  type ConnectionFormOutput,
  type ConnectionFormValues,
  type ConnectionTab,
} from './connection-form';
import { ConnectionHoursFields } from './connection-hours-fields';
import { generateConnectionToken } from './connection-token';
import { HolidayPeriodsPanel } from './holiday-periods-panel';
import { applyConnectionEvent, connectionsKey, refreshConnectionAlert } from './connections-queries';

type Form = UseFormReturn<ConnectionFormValues, unknown, ConnectionFormOutput>;
interface Option {
  id: number;
  name: string;
}

/** The texts sent to customers, which may use the message variables (spec part 2 §2.2). */
const MESSAGE_FIELDS = ['greetingMessage', 'complationMessage', 'outOfHoursMessage', 'ratingMessage', 'expiresInactiveMessage'] as const;
const MINUTE_FIELDS = ['expiresTicket', 'timeUseBotQueues', 'maxUseBotQueues', 'timeToTransfer'] as const;

/** `GET /queueIntegration` is paged; the select offers all of them. */
async function allIntegrations(api: HttpClient): Promise<Option[]> {
  const found: Option[] = [];
  for (let pageNumber = 1; pageNumber <= 50; pageNumber += 1) {
    const page = await api.get<{ queueIntegrations: Option[]; hasMore: boolean }>('/queueIntegration', { pageNumber });
    found.push(...page.queueIntegrations);
    if (!page.hasMore) break;
  }
  return found;
}

/** Add (`connectionId` null) or edit a connection (spec part 2 §2.2). The form appears once the connection is loaded. */
export function ConnectionDialog({ connectionId, onClose }: { connectionId: number | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const theme = useTheme();
  const fullScreen = useMediaQuery(theme.breakpoints.down('sm'));
  const plan = user?.company?.plan;
  const existing = useQuery({
    queryKey: ['connection-form', connectionId],
    // Spec part 2 §7: the edit form reads the connection without session detail.
    queryFn: () => api.get<PresentedConnectionDetail>(`/whatsapp/${connectionId}`, { session: 0 }),
    enabled: connectionId !== null,
    gcTime: 0,
  });
  const queues = useQuery({ queryKey: ['queues'], queryFn: () => api.get<PresentedQueueSummary[]>('/queue') });
  const prompts = useQuery({
    queryKey: ['prompts', 'options'],
    queryFn: async () => (await api.get<{ prompts: Option[] }>('/prompt')).prompts,
    enabled: Boolean(plan?.useOpenAi),
  });
  const integrations = useQuery({ queryKey: ['queueIntegrations', 'options'], queryFn: () => allIntegrations(api), enabled: Boolean(plan?.useIntegrations) });
  const ready = connectionId === null || existing.data !== undefined;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md" fullScreen={fullScreen} data-testid="connection-dialog">
      <DialogTitle>{t(connectionId === null ? 'connections.dialog.addTitle' : 'connections.dialog.editTitle')}</DialogTitle>
      {ready ? (
        <ConnectionForm
          connection={existing.data ?? null}
          queues={queues.data ?? []}
          prompts={plan?.useOpenAi ? (prompts.data ?? []) : null}
          integrations={plan?.useIntegrations ? (integrations.data ?? []) : null}
          isSuper={Boolean(user?.super)}
          onClose={onClose}
        />
      ) : (
        <>
          <DialogContent>
            {existing.isError ? (
              <Typography color="error">{t('connections.dialog.loadFailed')}</Typography>
            ) : (
              <Box role="status" aria-label={t('common.loading')} sx={{ display: 'flex', justifyContent: 'center', p: 4 }}>
                <CircularProgress />
              </Box>
            )}
          </DialogContent>
          <DialogActions>
            <Button onClick={onClose}>{t('common.cancel')}</Button>
          </DialogActions>
        </>
      )}
    </Dialog>
  );
}

interface ConnectionFormProps {
  connection: PresentedConnectionDetail | null;
  queues: PresentedQueueSummary[];
  /** null: the plan has no AI, the select is not shown. */
  prompts: Option[] | null;
  /** null: the plan has no integrations, the select is not shown. */
  integrations: Option[] | null;
  isSuper: boolean;
  onClose(): void;
}

function ConnectionForm({ connection, queues, prompts, integrations, isSuper, onClose }: ConnectionFormProps) {
  const { t, i18n } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const editing = connection !== null;
  const form: Form = useForm<ConnectionFormValues, unknown, ConnectionFormOutput>({ resolver: connectionFormResolver, defaultValues: connectionFormDefaults(connection) });
  const provider = useWatch({ control: form.control, name: 'provider' });
  const [tab, setTab] = useState<ConnectionTab>('general');
  const [issuedToken, setIssuedToken] = useState<string | null>(null);
  // A file sent with the greeting (whaticket v6's greeting media), stored once the connection is saved.
  const [greetingFile, setGreetingFile] = useState<Attachment>(() => storedAttachment(connection?.greetingMediaName));
  const { errors, isSubmitting } = form.formState;
  // Client messages are translation keys; the server's are sentences, shown as they come.
  const message = (text?: string) => (text ? (i18n.exists(text) ? t(text) : text) : undefined);
  const tabs: ConnectionTab[] = ['general', 'messages', 'automation', 'hours', 'holidays', ...(provider === 'cloud-api' ? (['cloudApi'] as const) : [])];
  const visibleTab = tabs.includes(tab) ? tab : 'general';
  const variables = useVariableInsertion<(typeof MESSAGE_FIELDS)[number]>('greetingMessage');
  const unknownVariables = useUnknownVariables();
  const texts = useWatch({ control: form.control, name: MESSAGE_FIELDS });

  const submit = form.handleSubmit(
    async (values) => {
      if (MESSAGE_FIELDS.some((name) => unknownVariables(values[name]))) {
        setTab('messages');
        return;
      }
      try {
        const body = connectionPayload(values, { editing, isSuper });
        const written = editing ? await api.put<PresentedConnectionDetail>(`/whatsapp/${connection.id}`, body) : await api.post<PresentedConnectionDetail>('/whatsapp', body);
        const saved = await syncGreetingFile(api, written, greetingFile);
        setGreetingFile(storedAttachment(saved.greetingMediaName));
        queryClient.setQueryData<PresentedConnectionDetail[]>(connectionsKey, (list) => applyConnectionEvent(list ?? [], { action: 'update', whatsapp: saved }));
        refreshConnectionAlert(queryClient);
        toastSuccess(t('connections.saved'));
        // The server makes API tokens: a value we sent only asked for a new one, shown now.
        if (saved.token && saved.token !== (connection?.token ?? '')) setIssuedToken(saved.token);
        else onClose();
      } catch (error) {
        const fields = error instanceof ApiError ? serverFieldErrors(error.data) : [];
        for (const [path, text] of fields) form.setError(path as FieldPath<ConnectionFormValues>, { type: 'server', message: text });
        if (fields[0]) setTab(tabOfField(fields[0][0]));
        toastError(error);
      }
    },
    (invalid) => {
      const first = Object.keys(invalid)[0];
      if (first) setTab(tabOfField(first));
    },
  );

  const selectOptions = (options: Option[]) => [
    <MenuItem key="none" value="">
      <em>{t('connections.dialog.none')}</em>
    </MenuItem>,
    ...options.map((option) => (
      <MenuItem key={option.id} value={option.id}>
        {option.name}
      </MenuItem>
    )),
  ];

  return (
    <form onSubmit={submit} noValidate style={{ display: 'contents' }}>
      <Tabs value={visibleTab} onChange={(_, value: ConnectionTab) => setTab(value)} variant="scrollable" allowScrollButtonsMobile sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
        {tabs.map((value) => (
          <Tab key={value} value={value} label={t(`connections.dialog.tabs.${value}`)} data-testid={`connection-tab-${value}`} />
        ))}
      </Tabs>
      <DialogContent sx={{ minHeight: 360 }}>
        {visibleTab === 'general' ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField
              label={t('connections.dialog.name')}
              {...form.register('name')}
              error={Boolean(errors.name)}
              helperText={message(errors.name?.message)}
              autoFocus
              slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'connection-name' } }}
            />
            <Controller
              control={form.control}
              name="provider"
              render={({ field }) => (
                <TextField
                  select
                  label={t('connections.dialog.provider')}
                  {...field}
                  disabled={editing}
                  error={Boolean(errors.provider)}
                  helperText={message(errors.provider?.message) ?? (editing ? t('connections.dialog.providerFixed') : undefined)}
                  slotProps={{ select: { SelectDisplayProps: { 'data-testid': 'connection-provider' } as object } }}
                >
                  {DIALOG_PROVIDERS.map((value) => (
                    <MenuItem key={value} value={value} data-testid={`connection-provider-${value}`}>
                      {t(`connections.dialog.providers.${value}`)}
                    </MenuItem>
                  ))}
                  {/* A connection created as 'baileys' through the API keeps its name in the list. */}
                  {editing && !(DIALOG_PROVIDERS as readonly string[]).includes(field.value) ? <MenuItem value={field.value}>{field.value}</MenuItem> : null}
                </TextField>
              )}
            />
            <Controller
              control={form.control}
              name="isDefault"
              render={({ field }) => (
                <FormControlLabel
                  control={
                    <Switch
                      checked={field.value}
                      onChange={(event) => field.onChange(event.target.checked)}
                      slotProps={{ input: { ...({ 'data-testid': 'connection-default-switch' } as object) } }}
                    />
                  }
                  label={t('connections.dialog.isDefault')}
                />
              )}
            />
            <Controller
              control={form.control}
              name="queueIds"
              render={({ field }) => (
                <TextField
                  select
                  label={t('connections.dialog.queues')}
                  value={field.value}
                  onChange={(event) => field.onChange((event.target.value as unknown as (number | string)[]).map(Number))}
                  onBlur={field.onBlur}
                  error={Boolean(errors.queueIds)}
                  helperText={message(errors.queueIds?.message)}
                  slotProps={{
                    select: {
                      multiple: true,
                      SelectDisplayProps: { 'data-testid': 'connection-queues' } as object,
                      renderValue: (selected) => (
                        <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                          {(selected as number[]).map((id) => {
                            const queue = queues.find((q) => q.id === id);
                            return <Chip key={id} size="small" label={queue?.name ?? id} sx={{ bgcolor: queue?.color, color: queue?.color ? '#fff' : undefined }} />;
                          })}
                        </Box>
                      ),
                    },
                  }}
                >
                  {queues.map((queue) => (
                    <MenuItem key={queue.id} value={queue.id}>
                      {queue.name}
                    </MenuItem>
                  ))}
                </TextField>
              )}
            />
            <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
              <TextField
                label={t('connections.dialog.token')}
                {...form.register('token')}
                error={Boolean(errors.token)}
                helperText={message(errors.token?.message) ?? t('connections.dialog.tokenHelp')}
                fullWidth
                slotProps={{ htmlInput: { autoComplete: 'off', spellCheck: false, 'data-testid': 'connection-token' } }}
              />
              <Button
                startIcon={<AutoAwesome />}
                sx={{ flexShrink: 0, mt: { sm: 1 } }}
                onClick={() => form.setValue('token', generateConnectionToken(), { shouldDirty: true, shouldValidate: true })}
                data-testid="connection-token-generate"
              >
                {t('connections.dialog.generateToken')}
              </Button>
            </Stack>
          </Stack>
        ) : null}

        {visibleTab === 'messages' ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            {MESSAGE_FIELDS.map((name, index) => {
              const unknown = unknownVariables(texts[index]);
              return (
                <TextField
                  key={name}
                  label={t(`connections.dialog.${name}`)}
                  {...form.register(name)}
                  {...variables.target(name)}
                  error={Boolean(errors[name]) || Boolean(unknown)}
                  helperText={message(errors[name]?.message) ?? unknown}
                  multiline
                  minRows={2}
                  maxRows={6}
                  slotProps={{ htmlInput: { 'data-testid': `connection-${name}` } }}
                />
              );
            })}
            <VariableChips kind="ticket" onInsert={variables.insert} testId="connection-variables" />
            <AttachmentField
              value={greetingFile}
              onChange={setGreetingFile}
              onRefused={(text) => toastError(new Error(text))}
              labels={{ attach: t('connections.dialog.greetingAttach'), hint: t('connections.dialog.greetingAttachHint'), remove: t('connections.dialog.greetingRemove') }}
              testId="connection-greeting-media"
            />
            <TextField
              label={t('connections.dialog.pix')}
              {...form.register('pix')}
              error={Boolean(errors.pix)}
              helperText={message(errors.pix?.message) ?? t('connections.dialog.pixHelp')}
              slotProps={{ htmlInput: { 'data-testid': 'connection-pix', maxLength: 200 } }}
            />
            <TextField
              label={t('connections.dialog.pixMessage')}
              {...form.register('pixMessage')}
              error={Boolean(errors.pixMessage)}
              helperText={message(errors.pixMessage?.message)}
              multiline
              minRows={2}
              maxRows={6}
              slotProps={{ htmlInput: { 'data-testid': 'connection-pixMessage' } }}
            />
          </Stack>
        ) : null}

        {visibleTab === 'automation' ? (
          <Stack spacing={2} sx={{ pt: 1 }}>
            <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr' }, gap: 2 }}>
              {MINUTE_FIELDS.map((name) => (
                <TextField
                  key={name}
                  type="number"
                  label={t(`connections.dialog.${name}`)}
                  {...form.register(name)}
                  error={Boolean(errors[name])}
                  helperText={message(errors[name]?.message) ?? t('connections.dialog.minutesHelp')}
                  slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': `connection-${name}` } }}
                />
              ))}
            </Box>
            <OptionSelect form={form} name="transferQueueId" label={t('connections.dialog.transferQueueId')} options={selectOptions(queues)} message={message} />
            {prompts ? <OptionSelect form={form} name="promptId" label={t('connections.dialog.prompt')} options={selectOptions(prompts)} message={message} /> : null}
            {integrations ? (
              <OptionSelect form={form} name="integrationId" label={t('connections.dialog.integration')} options={selectOptions(integrations)} message={message} />
            ) : null}
          </Stack>
        ) : null}

        {visibleTab === 'hours' ? <ConnectionHoursFields form={form} /> : null}
        {visibleTab === 'holidays' ? <HolidayPeriodsPanel connectionId={connection?.id ?? null} /> : null}
        {visibleTab === 'cloudApi' ? <CloudApiFields form={form} stored={connection?.cloudApi} isSuper={isSuper} /> : null}
      </DialogContent>
      <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="connection-save" />
      {issuedToken ? <SecretDialog secret={issuedToken} texts="connections.tokenIssued" testId="connection-token-issued" onClose={onClose} /> : null}
    </form>
  );
}

/** Brings the saved connection's greeting file in line with the dialog (upload a new one, delete a removed one). */
async function syncGreetingFile(api: HttpClient, saved: PresentedConnectionDetail, file: Attachment): Promise<PresentedConnectionDetail> {
  const url = `/whatsapp/${saved.id}/greeting-media`;
  if (file.kind === 'new') {
    const form = new FormData();
    form.append('file', file.file);
    return api.post<PresentedConnectionDetail>(url, form);
  }
  if (file.kind === 'none' && saved.greetingMediaName) return api.delete<PresentedConnectionDetail>(url);
  return saved;
}

function OptionSelect({
  form,
  name,
  label,
  options,
  message,
}: {
  form: Form;
  name: 'transferQueueId' | 'promptId' | 'integrationId';
  label: string;
  options: ReactNode[];
  message(text?: string): string | undefined;
}) {
  return (
    <Controller
      control={form.control}
      name={name}
      render={({ field, fieldState }) => (
        <TextField
          select
          label={label}
          value={field.value}
          onChange={(event) => field.onChange(event.target.value === '' ? '' : Number(event.target.value))}
          onBlur={field.onBlur}
          error={Boolean(fieldState.error)}
          helperText={message(fieldState.error?.message)}
          slotProps={{ select: { SelectDisplayProps: { 'data-testid': `connection-${name}` } as object } }}
        >
          {options}
        </TextField>
      )}
    />
  );
}
