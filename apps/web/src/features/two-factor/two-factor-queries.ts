import type { TwoFactorStatus } from '@atende/shared';
import { useQuery } from '@tanstack/react-query';
import { useSession } from '../../api/session';

export const twoFactorKey = ['two-factor'] as const;

/** The signed-in user's second factor (`GET /auth/2fa`): on or not, required by the company, recovery codes left. */
export function useTwoFactorStatus(enabled = true) {
  const { api } = useSession();
  return useQuery({ queryKey: twoFactorKey, queryFn: () => api.get<TwoFactorStatus>('/auth/2fa'), enabled, staleTime: 0 });
}

/** Whether the session's company asks every user for a second factor (its public setting `requireTwoFactor`). */
export function companyRequiresTwoFactor(settings: { key: string; value: string }[] | undefined): boolean {
  return settings?.find((setting) => setting.key === 'requireTwoFactor')?.value === 'enabled';
}
