import { requiredText, type PresentedConnection } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Dialog, DialogContent, DialogContentText, DialogTitle, TextField } from '@mui/material';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import type { HttpClient } from '../../api/http-client';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { applyConnectionEvent, connectionsKey, refreshConnectionAlert } from './connections-queries';

/** Spec part 2 §5: a connection's name is required, 2 to 50 characters. */
const SandboxConnectionForm = z.object({ name: requiredText(2, 50) });
type FormValues = z.input<typeof SandboxConnectionForm>;

/** A simulated phone needs no pairing: `POST /whatsapp {provider: 'sandbox'}` answers it CONNECTED. */
export async function createSandboxConnection(
  api: HttpClient,
  queryClient: QueryClient,
  name: string,
): Promise<PresentedConnection> {
  const created = await api.post<PresentedConnection>('/whatsapp', { name, provider: 'sandbox' });
  queryClient.setQueryData<PresentedConnection[]>(connectionsKey, (list) => applyConnectionEvent(list ?? [], { action: 'update', whatsapp: created }));
  refreshConnectionAlert(queryClient);
  return created;
}

export function AddSandboxConnectionDialog({ onClose, onCreated }: { onClose(): void; onCreated?(connection: PresentedConnection): void }) {
  const { t } = useTranslation();
  const { api } = useSession();
  const queryClient = useQueryClient();
  const form = useForm<FormValues>({ resolver: zodResolver(SandboxConnectionForm), defaultValues: { name: t('connections.sandboxDialog.defaultName') } });
  const { errors, isSubmitting } = form.formState;

  const submit = form.handleSubmit(async ({ name }) => {
    try {
      const created = await createSandboxConnection(api, queryClient, name);
      toastSuccess(t('connections.saved'));
      onCreated?.(created);
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="xs" data-testid="sandbox-connection-dialog">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('connections.sandboxDialog.title')}</DialogTitle>
        <DialogContent>
          <DialogContentText sx={{ mb: 2 }}>{t('connections.sandboxDialog.text')}</DialogContentText>
          <TextField
            label={t('connections.sandboxDialog.name')}
            {...form.register('name')}
            error={Boolean(errors.name)}
            helperText={errors.name?.message ? t(errors.name.message) : undefined}
            autoFocus
            fullWidth
            slotProps={{ htmlInput: { maxLength: 50, 'data-testid': 'sandbox-connection-name' } }}
          />
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="sandbox-connection-save" />
      </form>
    </Dialog>
  );
}
