import { can, PROFILES, requiredText, email as emailField } from '@atende/shared';
import { zodResolver } from '@hookform/resolvers/zod';
import { Button, Dialog, DialogActions, DialogContent, DialogTitle, MenuItem, Stack, TextField } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { z } from 'zod';
import { useSession } from '../../api/session';
import type { SessionUser } from '../../api/types';
import { toastError, toastSuccess } from '../../components/toast';

/** User form (spec part 1 §5): name 2–50, email valid, password optional 5–50. */
const UserForm = z.object({
  name: requiredText(2, 50),
  email: emailField(),
  password: z.union([z.literal(''), z.string().min(5, 'validation.tooShort').max(50, 'validation.tooLong')]),
  profile: z.enum(PROFILES),
});
type UserFormValues = z.input<typeof UserForm>;

export function UserModal({ userId, onClose }: { userId: number; onClose(): void }) {
  const { t } = useTranslation();
  const { api, user: me, setUser } = useSession();
  const target = useQuery({ queryKey: ['users', userId], queryFn: () => api.get<SessionUser>(`/users/${userId}`) });
  const form = useForm<UserFormValues>({ resolver: zodResolver(UserForm), defaultValues: { name: '', email: '', password: '', profile: 'user' } });
  const { reset } = form;
  useEffect(() => {
    if (target.data) reset({ name: target.data.name, email: target.data.email, password: '', profile: target.data.profile });
  }, [target.data, reset]);
  const mayEditProfile = me ? can(me, 'user-modal:editProfile') : false;
  const message = (key?: string) => (key ? t(key) : undefined);

  const submit = form.handleSubmit(async (values) => {
    try {
      const saved = await api.put<SessionUser>(`/users/${userId}`, {
        name: values.name,
        email: values.email,
        ...(values.password ? { password: values.password } : {}),
        ...(mayEditProfile ? { profile: values.profile } : {}),
      });
      if (me && saved.id === me.id) setUser({ ...me, name: saved.name, email: saved.email, profile: saved.profile });
      toastSuccess(t('userModal.saved'));
      onClose();
    } catch (error) {
      toastError(error);
    }
  });

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <form onSubmit={submit} noValidate>
        <DialogTitle>{t('userModal.title')}</DialogTitle>
        <DialogContent>
          <Stack spacing={2} sx={{ pt: 1 }}>
            <TextField label={t('userModal.name')} {...form.register('name')} error={Boolean(form.formState.errors.name)} helperText={message(form.formState.errors.name?.message)} autoFocus />
            <TextField label={t('userModal.email')} type="email" {...form.register('email')} error={Boolean(form.formState.errors.email)} helperText={message(form.formState.errors.email?.message)} />
            <TextField
              label={t('userModal.password')}
              type="password"
              autoComplete="new-password"
              {...form.register('password')}
              error={Boolean(form.formState.errors.password)}
              helperText={message(form.formState.errors.password?.message) ?? t('userModal.passwordHint')}
            />
            {mayEditProfile ? (
              <Controller
                control={form.control}
                name="profile"
                render={({ field }) => (
                  <TextField select label={t('userModal.profile')} {...field}>
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
        </DialogContent>
        <DialogActions>
          <Button onClick={onClose}>{t('userModal.cancel')}</Button>
          <Button type="submit" variant="contained" disabled={form.formState.isSubmitting || target.isLoading}>
            {t('userModal.save')}
          </Button>
        </DialogActions>
      </form>
    </Dialog>
  );
}
