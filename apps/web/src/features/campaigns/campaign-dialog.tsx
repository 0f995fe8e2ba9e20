import {
  CAMPAIGN_MESSAGE_FIELDS,
  CampaignBody,
  MAX_UPLOAD_BYTES,
  type PresentedCampaign,
  type PresentedContactList,
  type PresentedFileList,
  type PresentedTagSummary,
} from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Dialog, DialogContent, DialogTitle, FormControlLabel, MenuItem, Stack, Switch, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Controller, useForm, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { useCompanyTimeZone, useSession } from '../../api/session';
import { AttachmentField, storedAttachment, syncAttachment, type Attachment } from '../../components/attachment-field';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { useUnknownVariables, useVariableInsertion, VariableChips } from '../../components/variable-chips';
import { readSettings, useCampaignSettingEntries } from '../campaign-settings/campaign-settings-queries';
import { useConnections } from '../connections/connections-queries';
import { toZonedInput } from '../../i18n/dates';
import { cacheSavedCampaign } from './campaigns-queries';

type FormInput = z.input<typeof CampaignBody>;
type FormOutput = z.output<typeof CampaignBody>;

/** Spec part 2 §4: editable when INATIVA, or PROGRAMADA more than an hour ahead; messages also when CANCELADA. */
export function editableParts(campaign: PresentedCampaign | null, now = Date.now()): 'all' | 'messages' | 'none' {
  if (!campaign || campaign.status === 'INATIVA') return 'all';
  if (campaign.status === 'PROGRAMADA' && campaign.scheduledAt && new Date(campaign.scheduledAt).getTime() - now > 3_600_000) return 'all';
  return campaign.status === 'CANCELADA' ? 'messages' : 'none';
}

/** Campaign dialog (spec part 2 §2.7): name, up to 5 messages, connection, contact list or tag, file list, start time, confirmation, attachment (uploaded after the save). */
export function CampaignDialog({ campaign, onClose }: { campaign: PresentedCampaign | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const connections = useConnections();
  const lists = useQuery({ queryKey: ['contact-lists', 'list'], queryFn: () => api.get<PresentedContactList[]>('/contact-lists/list') });
  const tags = useQuery({ queryKey: ['tags', 'list'], queryFn: () => api.get<PresentedTagSummary[]>('/tags/list') });
  const fileLists = useQuery({ queryKey: ['files', 'all'], queryFn: () => api.get<{ files: PresentedFileList[] }>('/files', { pageNumber: 1 }) });
  const timeZone = useCompanyTimeZone();
  const editable = editableParts(campaign);
  const form = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(CampaignBody),
    defaultValues: {
      name: campaign?.name ?? '',
      message1: campaign?.message1 ?? '',
      message2: campaign?.message2 ?? '',
      message3: campaign?.message3 ?? '',
      message4: campaign?.message4 ?? '',
      message5: campaign?.message5 ?? '',
      whatsappId: campaign?.whatsappId ?? null,
      contactListId: campaign?.contactListId ?? null,
      tagId: campaign?.tagId ?? null,
      fileListId: campaign?.fileListId ?? null,
      scheduledAt: campaign?.scheduledAt ? toZonedInput(new Date(campaign.scheduledAt), timeZone) : '',
      confirmation: campaign?.confirmation ?? false,
    },
  });
  const { errors, isSubmitting } = form.formState;
  // Each message is filled for its contact when it is sent: the variables a campaign has, and the settings' keys.
  const settings = useCampaignSettingEntries();
  const customKeys = settings.data ? readSettings(settings.data).variables.map((variable) => variable.key) : [];
  const variables = useVariableInsertion<(typeof CAMPAIGN_MESSAGE_FIELDS)[number]>('message1');
  const unknownVariables = useUnknownVariables({ kind: 'campaign', customKeys });
  // Until the settings' keys are known the server alone judges them.
  const unknownIn = (text: string | undefined) => (settings.isSuccess ? unknownVariables(text) : undefined);
  const messages = useWatch({ control: form.control, name: CAMPAIGN_MESSAGE_FIELDS });
  const [attachment, setAttachment] = useState<Attachment>(storedAttachment(campaign?.mediaName));
  // Once saved, a retry (after a failed upload) updates the same campaign.
  const [stored, setStored] = useState<PresentedCampaign | null>(campaign);

  const submit = form.handleSubmit(async (values) => {
    if (CAMPAIGN_MESSAGE_FIELDS.some((field) => unknownIn(values[field]))) return;
    const body = editable === 'messages' ? Object.fromEntries(CAMPAIGN_MESSAGE_FIELDS.map((field) => [field, values[field] ?? ''])) : values;
    try {
      const saved = stored ? await api.put<PresentedCampaign>(`/campaigns/${stored.id}`, body) : await api.post<PresentedCampaign>('/campaigns', body);
      setStored(saved);
      cacheSavedCampaign(queryClient, saved);
      if (editable === 'all') cacheSavedCampaign(queryClient, await syncAttachment(api, `/campaigns/${saved.id}`, saved, attachment));
      toastSuccess(t('campaigns.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const locked = editable !== 'all';
  const select = (name: 'whatsappId' | 'contactListId' | 'tagId' | 'fileListId', options: { id: number; name: string }[], testId: string) => (
    <Controller
      control={form.control}
      name={name}
      render={({ field }) => (
        <TextField
          select
          fullWidth
          label={t(`campaigns.dialog.${({ whatsappId: 'whatsapp', contactListId: 'contactList', tagId: 'tag', fileListId: 'fileList' } as const)[name]}`)}
          value={field.value ?? ''}
          onChange={(event) => field.onChange(event.target.value === '' ? null : Number(event.target.value))}
          disabled={locked}
          slotProps={{ htmlInput: { 'data-testid': testId } }}
        >
          <MenuItem value="">{t('campaigns.dialog.none')}</MenuItem>
          {options.map((option) => (
            <MenuItem key={option.id} value={option.id}>
              {option.name}
            </MenuItem>
          ))}
        </TextField>
      )}
    />
  );

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="md" data-testid="campaign-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{!campaign ? t('campaigns.dialog.addTitle') : editable === 'none' ? t('campaigns.dialog.viewTitle') : t('campaigns.dialog.editTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            {locked ? <Alert severity="info">{t('campaigns.dialog.readOnly')}</Alert> : null}
            <TextField
              label={t('campaigns.dialog.name')}
              {...form.register('name')}
              error={Boolean(errors.name)}
              helperText={errors.name?.message ? t(errors.name.message) : undefined}
              required
              autoFocus
              disabled={locked}
              slotProps={{ htmlInput: { 'data-testid': 'campaign-name', maxLength: 50 } }}
            />
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2}>
              {select('whatsappId', connections.data ?? [], 'campaign-whatsapp')}
              {select('contactListId', lists.data ?? [], 'campaign-contact-list')}
              {select('tagId', tags.data ?? [], 'campaign-tag')}
              {select('fileListId', fileLists.data?.files ?? [], 'campaign-file-list')}
            </Stack>
            <Stack direction={{ xs: 'column', md: 'row' }} spacing={2} sx={{ alignItems: { md: 'center' } }}>
              <TextField
                type="datetime-local"
                label={t('campaigns.dialog.scheduledAt')}
                {...form.register('scheduledAt')}
                error={Boolean(errors.scheduledAt)}
                helperText={errors.scheduledAt?.message ? t(errors.scheduledAt.message) : t('campaigns.dialog.scheduledHint', { timeZone })}
                disabled={locked}
                slotProps={{ inputLabel: { shrink: true }, htmlInput: { 'data-testid': 'campaign-scheduled-at' } }}
              />
              <Controller
                control={form.control}
                name="confirmation"
                render={({ field }) => (
                  <FormControlLabel
                    control={<Switch checked={Boolean(field.value)} onChange={(_, checked) => field.onChange(checked)} disabled={locked} />}
                    label={t('campaigns.dialog.confirmation')}
                  />
                )}
              />
            </Stack>
            <AttachmentField
              value={attachment}
              onChange={setAttachment}
              disabled={locked}
              check={(file) => (file.size > MAX_UPLOAD_BYTES ? t('campaigns.dialog.tooLarge') : null)}
              onRefused={(message) => toastError(new Error(message))}
              labels={{ attach: t('campaigns.dialog.attach'), hint: t('campaigns.dialog.attachHint'), remove: t('campaigns.dialog.removeAttachment') }}
              testId="campaign-attachment"
            />
            {CAMPAIGN_MESSAGE_FIELDS.map((field, index) => {
              const unknown = unknownIn(messages[index]);
              return (
                <TextField
                  key={field}
                  label={t('campaigns.dialog.message', { n: index + 1 })}
                  {...form.register(field)}
                  {...variables.target(field)}
                  multiline
                  minRows={2}
                  disabled={editable === 'none'}
                  error={Boolean(errors[field]) || Boolean(unknown)}
                  helperText={unknown ?? (index === 0 ? t('campaigns.dialog.messageHint') : undefined)}
                  slotProps={{ htmlInput: { 'data-testid': `campaign-${field}` } }}
                />
              );
            })}
            {editable === 'none' ? null : <VariableChips kind="campaign" customKeys={customKeys} onInsert={variables.insert} />}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="campaign-save" saveDisabled={editable === 'none'} />
      </form>
    </Dialog>
  );
}
