import {
  ALL_TICKET_VALUES,
  can,
  LANGUAGES,
  MAX_OPEN_TICKETS_LIMIT,
  PROFILES,
  UserCreateBody,
  UserUpdateBody,
  type AllTicket,
  type Language,
  type PresentedQueue,
  type PresentedUser,
  type Profile,
} from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Box, CircularProgress, Dialog, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../api/session';
import { FormDialogActions } from '../../components/form-dialog-actions';
import { toastError, toastSuccess } from '../../components/toast';
import { changeLanguage } from '../../i18n';
import { connectionsQuery } from '../connections/connections-queries';
import { queuesKey } from '../queues/queues-queries';
import { QueueChip } from './queue-chip';
import { cacheSavedUser, userKeys, withOwnRights } from './users-queries';

interface UserFormValues {
  name: string;
  email: string;
  password: string;
  profile: Profile;
  allTicket: AllTicket;
  /** '' = no default connection. */
  whatsappId: number | '';
  queueIds: number[];
  /** '' = not chosen (the browser's language). */
  language: Language | '';
  /** Auto-assignment's capacity as typed; '' = each queue's default. */
  maxOpenTickets: string;
}

const EMPTY: UserFormValues = { name: '', email: '', password: '', profile: 'user', allTicket: 'desabled', whatsappId: '', queueIds: [], language: '', maxOpenTickets: '' };

/**
 * The user form's own checks (spec part 1 §5) come from the shared request
 * schemas, so the server refuses exactly what the form does: name 2–50, email
 * valid, password 5–50, required on add only.
 */
function userFormSchema(adding: boolean) {
  return z.object({
    name: UserCreateBody.shape.name,
    email: UserCreateBody.shape.email,
    password: adding ? UserCreateBody.shape.password : UserUpdateBody.shape.password.unwrap(),
    profile: z.enum(PROFILES),
    allTicket: z.enum(ALL_TICKET_VALUES),
    whatsappId: z.union([z.number(), z.literal('')]),
    queueIds: z.array(z.number()),
    language: z.union([z.enum(LANGUAGES), z.literal('')]),
    maxOpenTickets: z
      .string()
      .trim()
      .refine((value) => value === '' || (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= MAX_OPEN_TICKETS_LIMIT), 'validation.capacityRange'),
  });
}

/** The shared schemas' message keys, shown under the spec's `userModal.formErrors.*`. */
const FORM_ERRORS: Record<string, string> = {
  'validation.required': 'userModal.formErrors.required',
  'validation.tooShort': 'userModal.formErrors.tooShort',
  'validation.tooLong': 'userModal.formErrors.tooLong',
  'validation.invalidEmail': 'userModal.formErrors.invalidEmail',
};

export interface UserModalProps {
  open: boolean;
  /** Edit this user; null: add a new one. */
  userId: number | null;
  onClose(): void;
}

/**
 * User modal (spec part 1 §2, §5, §6), for add and edit, and for "edit profile"
 * on oneself. Anyone edits its own name, email, password and language; only an
 * admin sees profile, queues, allTicket and the default connection (the server
 * enforces the same).
 */
export function UserModal({ open, userId, onClose }: UserModalProps) {
  const { t } = useTranslation();
  const { api, user: me, setUser } = useSession();
  const queryClient = useQueryClient();
  const adding = userId === null;
  const admin = me?.profile === 'admin';
  const mayEditProfile = me ? can(me, 'user-modal:editProfile') : false;
  const mayEditQueues = me ? can(me, 'user-modal:editQueues') : false;

  const target = useQuery({
    queryKey: userKeys.detail(userId ?? 0),
    queryFn: () => api.get<PresentedUser>(`/users/${userId}`),
    enabled: open && !adding,
    // Always the stored version: someone may have changed it since the list loaded.
    staleTime: 0,
  });
  const queues = useQuery({ queryKey: queuesKey, queryFn: () => api.get<PresentedQueue[]>('/queue'), enabled: open && mayEditQueues });
  const connections = useQuery({ ...connectionsQuery(api), enabled: open && admin });

  const schema = useMemo(() => userFormSchema(adding), [adding]);
  const form = useForm<UserFormValues>({ resolver: zodResolver(schema), defaultValues: EMPTY });
  const { reset } = form;
  const { errors, isSubmitting } = form.formState;
  const loadError = target.error;
  useEffect(() => {
    if (loadError) toastError(loadError);
  }, [loadError]);

  // Fill the form once per opening, so a live update of the same user does not wipe what is being typed.
  const loaded = !adding && !target.isFetching ? target.data : undefined;
  const filled = useRef(false);
  useEffect(() => {
    if (!open) {
      filled.current = false;
      reset(EMPTY);
      return;
    }
    if (filled.current) return;
    if (loaded) {
      reset({
        name: loaded.name,
        email: loaded.email,
        password: '',
        profile: loaded.profile,
        allTicket: loaded.allTicket,
        whatsappId: loaded.whatsappId ?? '',
        queueIds: loaded.queues.map((queue) => queue.id),
        language: loaded.language ?? '',
        maxOpenTickets: loaded.maxOpenTickets === null ? '' : String(loaded.maxOpenTickets),
      });
      filled.current = true;
    } else if (adding) {
      reset(EMPTY);
      filled.current = true;
    }
  }, [open, loaded, adding, reset]);

  const message = (key?: string) => (key ? t(FORM_ERRORS[key] ?? 'userModal.formErrors.invalid') : undefined);

  const submit = form.handleSubmit(async (values) => {
    const body = {
      name: values.name,
      email: values.email,
      ...(values.password ? { password: values.password } : {}),
      ...(values.language ? { language: values.language } : {}),
      ...(mayEditProfile ? { profile: values.profile } : {}),
      ...(mayEditQueues ? { queueIds: values.queueIds } : {}),
      ...(admin
        ? {
            allTicket: values.allTicket,
            whatsappId: values.whatsappId === '' ? null : values.whatsappId,
            maxOpenTickets: values.maxOpenTickets.trim() === '' ? null : Number(values.maxOpenTickets),
          }
        : {}),
    };
    try {
      const saved = adding ? await api.post<PresentedUser>('/users', body) : await api.put<PresentedUser>(`/users/${userId}`, body);
      cacheSavedUser(queryClient, saved);
      if (me && saved.id === me.id) {
        setUser(withOwnRights(me, saved));
        if (saved.language && saved.language !== me.language) changeLanguage(saved.language);
      }
      toastSuccess(t('userModal.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  const queueById = new Map((queues.data ?? []).map((queue) => [queue.id, queue]));
  const loading = !adding && !loaded && !target.isError;
  return (
    <Dialog open={open} onClose={isSubmitting ? undefined : onClose} fullWidth maxWidth="sm" data-testid="user-modal">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{adding ? t('userModal.addTitle') : t('userModal.editTitle')}</DialogTitle>
        <DialogContent dividers>
          {loading ? (
            <Box sx={{ display: 'flex', justifyContent: 'center', py: 4 }}>
              <CircularProgress aria-label={t('common.loading')} />
            </Box>
          ) : (
            <Stack spacing={2}>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('userModal.name')}
                  {...form.register('name')}
                  error={Boolean(errors.name)}
                  helperText={message(errors.name?.message)}
                  required
                  autoFocus
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': 'user-name' } }}
                />
                <TextField
                  label={t('userModal.password')}
                  type="password"
                  autoComplete="new-password"
                  {...form.register('password')}
                  error={Boolean(errors.password)}
                  helperText={message(errors.password?.message) ?? (adding ? undefined : t('userModal.passwordHint'))}
                  required={adding}
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': 'user-password' } }}
                />
              </Stack>
              <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                <TextField
                  label={t('userModal.email')}
                  type="email"
                  autoComplete="off"
                  {...form.register('email')}
                  error={Boolean(errors.email)}
                  helperText={message(errors.email?.message)}
                  required
                  fullWidth
                  slotProps={{ htmlInput: { 'data-testid': 'user-email' } }}
                />
                {mayEditProfile ? (
                  <Controller
                    control={form.control}
                    name="profile"
                    render={({ field }) => (
                      <TextField select label={t('userModal.profile')} {...field} fullWidth data-testid="user-profile">
                        {PROFILES.map((profile) => (
                          <MenuItem key={profile} value={profile}>
                            {t(`userModal.profiles.${profile}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                ) : null}
              </Stack>
              {mayEditQueues ? (
                <Controller
                  control={form.control}
                  name="queueIds"
                  render={({ field }) => (
                    <TextField
                      select
                      label={t('userModal.queues')}
                      value={field.value}
                      onChange={(event) => field.onChange(event.target.value as unknown as number[])}
                      onBlur={field.onBlur}
                      fullWidth
                      data-testid="user-queues"
                      slotProps={{
                        select: {
                          multiple: true,
                          renderValue: (selected) => (
                            <Box sx={{ display: 'flex', flexWrap: 'wrap', gap: 0.5 }}>
                              {(selected as number[]).map((id) => {
                                const queue = queueById.get(id) ?? loaded?.queues.find((q) => q.id === id);
                                return queue ? <QueueChip key={id} queue={queue} /> : null;
                              })}
                            </Box>
                          ),
                        },
                      }}
                    >
                      {(queues.data ?? []).map((queue) => (
                        <MenuItem key={queue.id} value={queue.id} data-testid="user-queue-option">
                          <Box component="span" sx={{ width: 12, height: 12, borderRadius: '50%', bgcolor: queue.color, mr: 1, flexShrink: 0 }} />
                          {queue.name}
                        </MenuItem>
                      ))}
                    </TextField>
                  )}
                />
              ) : null}
              {admin ? (
                <Stack direction={{ xs: 'column', sm: 'row' }} spacing={2}>
                  <Controller
                    control={form.control}
                    name="allTicket"
                    render={({ field }) => (
                      <TextField select label={t('userModal.allTicket')} {...field} fullWidth data-testid="user-allticket">
                        {ALL_TICKET_VALUES.map((value) => (
                          <MenuItem key={value} value={value}>
                            {t(`userModal.allTicketValues.${value}`)}
                          </MenuItem>
                        ))}
                      </TextField>
                    )}
                  />
                  <Controller
                    control={form.control}
                    name="whatsappId"
                    render={({ field }) => (
                      <TextField select label={t('userModal.whatsapp')} {...field} fullWidth data-testid="user-whatsapp">
                        <MenuItem value="">{t('userModal.none')}</MenuItem>
                        {(connections.data ?? []).map((connection) => (
                          <MenuItem key={connection.id} value={connection.id}>
                            {connection.name}
                          </MenuItem>
                        ))}
                        {/* The stored connection, until the list has loaded (MUI warns on a value without its option). */}
                        {loaded?.whatsapp && !connections.data ? <MenuItem value={loaded.whatsapp.id}>{loaded.whatsapp.name}</MenuItem> : null}
                      </TextField>
                    )}
                  />
                </Stack>
              ) : null}
              {admin ? (
                <TextField
                  label={t('userModal.maxOpenTickets')}
                  type="number"
                  {...form.register('maxOpenTickets')}
                  error={Boolean(errors.maxOpenTickets)}
                  helperText={errors.maxOpenTickets?.message ? t(errors.maxOpenTickets.message) : t('userModal.maxOpenTicketsHint')}
                  fullWidth
                  slotProps={{ htmlInput: { min: 1, max: MAX_OPEN_TICKETS_LIMIT, step: 1, 'data-testid': 'user-maxOpenTickets' } }}
                />
              ) : null}
              <Controller
                control={form.control}
                name="language"
                render={({ field }) => (
                  <TextField select label={t('userModal.language')} {...field} fullWidth data-testid="user-language">
                    <MenuItem value="">{t('userModal.none')}</MenuItem>
                    {LANGUAGES.map((language) => (
                      <MenuItem key={language} value={language}>
                        {t(`languages.${language}`)}
                      </MenuItem>
                    ))}
                  </TextField>
                )}
              />
            </Stack>
          )}
        </DialogContent>
        <FormDialogActions saving={isSubmitting} onCancel={onClose} saveTestId="user-save" saveDisabled={loading} />
      </form>
    </Dialog>
  );
}
