import { DEFAULT_MAX_OPEN_TICKETS, QueueBody, SLA_DEFAULT_WARN_PERCENT, type PresentedQueue, type QueueUpdateBody } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Box, Dialog, DialogContent, DialogTitle, MenuItem, Stack, Tab, Tabs, TextField } from '@mui/material';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useSession } from '../../api/session';
import { AttachmentField, storedAttachment, syncAttachment, type Attachment } from '../../components/attachment-field';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { useIntegrationOptions } from '../integrations/integrations-queries';
import { usePrompts } from '../prompts/prompts-queries';
import { useScheduleType } from '../settings/settings-queries';
import { schedulesPayload, validateWeek, weekRows, type WeekdayHours } from '../settings/weekly-hours';
import { WeeklyHoursEditor } from '../settings/weekly-hours-editor';
import { QueueSlaFields } from '../sla/queue-sla-fields';
import { freeQueueColor } from './queue-colors';
import { QueueAutoAssignFields } from './queue-auto-assign-fields';
import { QueueColorField } from './queue-color-field';
import { QueueOptionsEditor } from './queue-options-editor';
import { cacheQueueEvent } from './queues-queries';

type FormInput = z.input<typeof QueueBody>;
type FormOutput = z.output<typeof QueueBody>;
type TabKey = 'data' | 'hours' | 'options';

/** The queue's texts sent to customers, which may use the message variables (spec part 1 §9). */
const MESSAGE_FIELDS = ['greetingMessage', 'outOfHoursMessage', 'ratingMessage'] as const;

/**
 * The queue modal (spec part 2 §2.3): queue data; attendance hours only when the
 * setting scheduleType is `queue`; the chatbot option tree once the queue exists.
 * The integration and prompt pickers appear only when the plan allows them, and
 * a hidden picker leaves the stored value alone. Mounted while open (closing resets it).
 */
export function QueueModal({ queue: given, otherColors, onClose }: { queue: PresentedQueue | null; otherColors: string[]; onClose(): void }) {
  const { t } = useTranslation();
  // A queue created here stays in the dialog: its chatbot options are built right after the first save.
  const [created, setCreated] = useState<PresentedQueue | null>(null);
  const queue = given ?? created;
  const { api, user } = useSession();
  const queryClient = useQueryClient();
  const plan = user?.company?.plan;
  const useIntegrations = Boolean(plan?.useIntegrations);
  const useOpenAi = Boolean(plan?.useOpenAi);
  const integrations = useIntegrationOptions(useIntegrations);
  const prompts = usePrompts(useOpenAi);
  const hoursTab = useScheduleType() === 'queue';
  const [tab, setTab] = useState<TabKey>('data');
  const [hours, setHours] = useState<WeekdayHours[]>(() => weekRows(queue?.schedules));
  const [showHourErrors, setShowHourErrors] = useState(false);
  // A file sent with the greeting (whaticket v6's queue media), stored once the queue is saved.
  const [attachment, setAttachment] = useState<Attachment>(() => storedAttachment(queue?.mediaName));

  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(QueueBody),
    defaultValues: {
      name: queue?.name ?? '',
      color: queue?.color ?? freeQueueColor(otherColors),
      orderQueue: queue?.orderQueue ?? '',
      greetingMessage: queue?.greetingMessage ?? '',
      outOfHoursMessage: queue?.outOfHoursMessage ?? '',
      ratingMessage: queue?.ratingMessage ?? '',
      integrationId: queue?.integrationId ?? '',
      promptId: queue?.promptId ?? '',
      autoAssign: queue?.autoAssign ?? 'off',
      defaultMaxOpenTickets: queue?.defaultMaxOpenTickets ?? DEFAULT_MAX_OPEN_TICKETS,
      slaFirstResponseMinutes: queue?.slaFirstResponseMinutes ?? '',
      slaResolutionMinutes: queue?.slaResolutionMinutes ?? '',
      slaWarnPercent: queue?.slaWarnPercent ?? SLA_DEFAULT_WARN_PERCENT,
    },
  });
  const { errors, isSubmitting } = form.formState;
  const message = (key?: string) => (key ? t(key) : undefined);
  const color = useWatch({ control: form.control, name: 'color' });
  const shownTab: TabKey = tab === 'hours' && !hoursTab ? 'data' : tab;
  const variables = useVariableInsertion<(typeof MESSAGE_FIELDS)[number]>('greetingMessage');
  const unknownVariables = useUnknownVariables();
  const texts = useWatch({ control: form.control, name: MESSAGE_FIELDS });

  const submit = form.handleSubmit(
    async (values) => {
      if (MESSAGE_FIELDS.some((field) => unknownVariables(values[field]))) {
        setTab('data');
        return;
      }
      if (hoursTab && Object.keys(validateWeek(hours)).length > 0) {
        setShowHourErrors(true);
        setTab('hours');
        toastError(new Error(t('queues.modal.hoursInvalid')));
        return;
      }
      const body: QueueUpdateBody = { ...values };
      if (!useIntegrations) delete body.integrationId;
      if (!useOpenAi) delete body.promptId;
      if (hoursTab) body.schedules = schedulesPayload(hours);
      try {
        const written = queue ? await api.put<PresentedQueue>(`/queue/${queue.id}`, body) : await api.post<PresentedQueue>('/queue', body);
        const saved = await syncAttachment(api, `/queue/${written.id}`, written, attachment);
        setAttachment(storedAttachment(saved.mediaName));
        cacheQueueEvent(queryClient, { action: queue ? 'update' : 'create', queue: saved });
        toastSuccess(t('queues.saved'));
        if (queue) onClose();
        else {
          setCreated(saved);
          setTab('options');
        }
      } catch (error) {
        toastError(error);
      }
    },
    () => setTab('data'),
  );

  const idSelect = (name: 'integrationId' | 'promptId', label: string, items: { id: number; name: string }[], loading: boolean) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          label={label}
          value={field.value ?? ''}
          onChange={(event) => field.onChange(event.target.value === '' ? '' : Number(event.target.value))}
          onBlur={field.onBlur}
          fullWidth
          slotProps={{ htmlInput: { 'data-testid': `queue-${name}` } }}
          helperText={loading ? t('common.loading') : undefined}
        >
          <MenuItem value="">
            <em>{t('queues.modal.none')}</em>
          </MenuItem>
          {items.map((item) => (
            <MenuItem key={item.id} value={item.id}>
              {item.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="md" data-testid="queue-modal">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{queue ? t('queues.modal.editTitle') : t('queues.modal.addTitle')}</DialogTitle>
        <Tabs value={shownTab} onChange={(_, value: TabKey) => setTab(value)} variant="scrollable" allowScrollButtonsMobile sx={{ px: 2, borderBottom: 1, borderColor: 'divider' }}>
          <Tab value="data" label={t('queues.modal.tabs.data')} data-testid="queue-tab-data" />
          {hoursTab ? <Tab value="hours" label={t('queues.modal.tabs.hours')} data-testid="queue-tab-hours" /> : null}
          <Tab value="options" label={t('queues.modal.tabs.options')} data-testid="queue-tab-options" />
        </Tabs>
        <DialogContent sx={{ minHeight: 320 }}>
          <Box hidden={shownTab !== 'data'}>
            <Stack spacing={2} sx={{ pt: 1 }}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('queues.modal.name')}
                  {...form.register('name')}
                  error={Boolean(errors.name)}
                  helperText={message(errors.name?.message)}
                  required
                  autoFocus
                  fullWidth
                  slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'queue-name' } }}
                />
                <QueueColorField
                  value={color ?? ''}
                  onPick={(picked) => form.setValue('color', picked, { shouldDirty: true, shouldValidate: true })}
                  error={Boolean(errors.color)}
                  helperText={message(errors.color?.message)}
                  inputProps={form.register('color')}
                />
                <TextField
                  label={t('queues.modal.orderQueue')}
                  type="number"
                  {...form.register('orderQueue')}
                  error={Boolean(errors.orderQueue)}
                  helperText={message(errors.orderQueue?.message) ?? t('queues.modal.orderQueueHint')}
                  // Wide enough for its label in every language ("Ordem da fila (bot)" was cut at 160 px).
                  sx={{ minWidth: { sm: 230 }, flexShrink: 0 }}
                  slotProps={{ htmlInput: { min: 0, step: 1, 'data-testid': 'queue-order' } }}
                />
              </Stack>
              {useIntegrations || useOpenAi ? (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  {useIntegrations ? idSelect('integrationId', t('queues.modal.integration'), integrations.data ?? [], integrations.isPending) : null}
                  {useOpenAi ? idSelect('promptId', t('queues.modal.prompt'), prompts.data ?? [], prompts.isPending) : null}
                </Stack>
              ) : null}
              <QueueAutoAssignFields form={form} />
              {MESSAGE_FIELDS.map((field, index) => {
                const unknown = unknownVariables(texts[index]);
                return (
                  <TextField
                    key={field}
                    label={t(`queues.modal.${field}`)}
                    {...form.register(field)}
                    {...variables.target(field)}
                    error={Boolean(errors[field]) || Boolean(unknown)}
                    helperText={message(errors[field]?.message) ?? unknown}
                    multiline
                    minRows={2}
                    maxRows={8}
                    slotProps={{ htmlInput: { maxLength: 4096, 'data-testid': `queue-${field}` } }}
                  />
                );
              })}
              <VariableChips kind="ticket" onInsert={variables.insert} />
              <QueueSlaFields form={form} />
              <AttachmentField
                value={attachment}
                onChange={setAttachment}
                onRefused={(text) => toastError(new Error(text))}
                labels={{ attach: t('queues.modal.attach'), hint: t('queues.modal.attachHint'), remove: t('queues.modal.removeAttachment') }}
                testId="queue-attachment"
              />
            </Stack>
          </Box>
          {hoursTab ? (
            <Box hidden={shownTab !== 'hours'} sx={{ pt: 1 }}>
              <WeeklyHoursEditor rows={hours} onChange={setHours} showErrors={showHourErrors} testIdPrefix="queue" />
            </Box>
          ) : null}
          {shownTab === 'options' ? (
            <Box sx={{ pt: 1 }}>{queue ? <QueueOptionsEditor queueId={queue.id} /> : <Alert severity="info">{t('queues.modal.saveFirst')}</Alert>}</Box>
          ) : null}
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} cancelTestId="queue-cancel" saveTestId="queue-save" />
      </form>
    </Dialog>
  );
}
