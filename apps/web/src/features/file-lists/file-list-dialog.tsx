import type { PresentedFileList } from '@atende/shared';
import { FILE_LIST_EXTENSIONS } from '@atende/shared';
import AttachFile from '@mui/icons-material/AttachFile';
import DeleteOutlined from '@mui/icons-material/DeleteOutlined';
import { Button, Dialog, DialogContent, DialogTitle, IconButton, LinearProgress, Stack, TextField, Typography } from '@mui/material';
import { Tooltip } from '../../components/tooltip';
import { useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';

interface OptionDraft {
  key: number;
  id?: number;
  name: string;
  stored: string | null;
  file: File | null;
}

let nextKey = 0;

/** File list dialog (spec part 2 §2.11, §5): name (3+), description, options each with a name and a file; progress while saving. */
export function FileListDialog({ fileList, onClose }: { fileList: PresentedFileList | null; onClose(): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const [name, setName] = useState(fileList?.name ?? '');
  const [message, setMessage] = useState(fileList?.message ?? '');
  const [options, setOptions] = useState<OptionDraft[]>(() => (fileList?.options ?? []).map((o) => ({ key: nextKey++, id: o.id, name: o.name, stored: o.path, file: null })));
  const [saving, setSaving] = useState(false);
  const [tried, setTried] = useState(false);
  const nameError = tried && name.trim().length < 3;
  const messageError = tried && !message.trim();

  const change = (key: number, patch: Partial<OptionDraft>) => setOptions((current) => current.map((o) => (o.key === key ? { ...o, ...patch } : o)));

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setTried(true);
    if (name.trim().length < 3 || !message.trim() || options.some((o) => !o.name.trim())) return;
    setSaving(true);
    try {
      const body = { name: name.trim(), message: message.trim(), options: options.map((o) => ({ ...(o.id ? { id: o.id } : {}), name: o.name.trim() })) };
      let saved = fileList ? await api.put<PresentedFileList>(`/files/${fileList.id}`, body) : await api.post<PresentedFileList>('/files', body);
      // Options come back in the order sent: the picked files go to their options by position.
      const form = new FormData();
      options.forEach((option, index) => {
        const target = saved.options[index];
        if (option.file && target) {
          form.append('optionId', String(target.id));
          form.append('files', option.file);
        }
      });
      if (form.has('files')) saved = await api.post<PresentedFileList>(`/files/uploadList/${saved.id}`, form);
      void queryClient.invalidateQueries({ queryKey: ['files'] });
      toastSuccess(t('fileLists.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Dialog open onClose={saving ? undefined : onClose} fullWidth maxWidth="sm" data-testid="file-list-dialog">
      <form onSubmit={(event) => void submit(event)} noValidate>
        <DialogTitle>{fileList ? t('fileLists.dialog.editTitle') : t('fileLists.dialog.addTitle')}</DialogTitle>
        <DialogContent dividers>
          <Stack spacing={2}>
            <TextField
              label={t('fileLists.dialog.name')}
              value={name}
              onChange={(e) => setName(e.target.value)}
              error={nameError}
              helperText={nameError ? t('validation.tooShort') : undefined}
              required
              autoFocus
              slotProps={{ htmlInput: { 'data-testid': 'file-list-name', maxLength: 100 } }}
            />
            <TextField
              label={t('fileLists.dialog.message')}
              value={message}
              onChange={(e) => setMessage(e.target.value)}
              error={messageError}
              helperText={messageError ? t('validation.required') : undefined}
              required
              multiline
              minRows={2}
              slotProps={{ htmlInput: { 'data-testid': 'file-list-message', maxLength: 2000 } }}
            />
            {options.map((option, index) => (
              <Stack key={option.key} direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }} data-testid="file-list-option">
                <TextField
                  size="small"
                  label={t('fileLists.dialog.option')}
                  value={option.name}
                  onChange={(e) => change(option.key, { name: e.target.value })}
                  error={tried && !option.name.trim()}
                  sx={{ flex: 1 }}
                  slotProps={{ htmlInput: { 'data-testid': `file-list-option-name-${index}`, maxLength: 100 } }}
                />
                <Button component="label" size="small" variant="outlined" startIcon={<AttachFile />}>
                  {t('fileLists.dialog.pick')}
                  <input hidden type="file" accept={FILE_LIST_EXTENSIONS.join(',')} data-testid={`file-list-option-file-${index}`} onChange={(e) => change(option.key, { file: e.target.files?.[0] ?? null })} />
                </Button>
                <Typography variant="body2" color="text.secondary" sx={{ minWidth: 0, overflowWrap: 'anywhere', flex: 1 }}>
                  {option.file?.name ?? option.stored ?? t('fileLists.dialog.noFile')}
                </Typography>
                <Tooltip title={t('fileLists.dialog.removeOption')}>
                  <IconButton size="small" aria-label={t('fileLists.dialog.removeOption')} onClick={() => setOptions((current) => current.filter((o) => o.key !== option.key))}>
                    <DeleteOutlined fontSize="small" />
                  </IconButton>
                </Tooltip>
              </Stack>
            ))}
            <Button onClick={() => setOptions((current) => [...current, { key: nextKey++, name: '', stored: null, file: null }])} data-testid="file-list-add-option" sx={{ alignSelf: 'flex-start' }}>
              {t('fileLists.dialog.addOption')}
            </Button>
            <Typography variant="caption" color="text.secondary">
              {t('fileLists.dialog.limits')}
            </Typography>
            {saving ? <LinearProgress data-testid="file-list-saving" /> : null}
          </Stack>
        </DialogContent>
        <FormDialogActions saving={saving} onCancel={onClose} saveTestId="file-list-save" />
      </form>
    </Dialog>
  );
}
