import type { PresentedQueueSummary } from '@atende/shared';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSession } from '../../api/session';
import { toastError } from '../../components/toast';

/**
 * The queues a user picks from: its own for a user, every queue of the company
 * for an admin (who may see and create tickets in any of them; spec part 1 §2).
 */
/** One empty list while the queues load, so memoized readers see the same one. */
const NO_QUEUES: PresentedQueueSummary[] = [];

export function useSelectableQueues(): { queues: PresentedQueueSummary[]; loading: boolean } {
  const { t } = useTranslation();
  const { api, user } = useSession();
  const admin = user?.profile === 'admin';
  const all = useQuery({ queryKey: ['queues'], queryFn: () => api.get<PresentedQueueSummary[]>('/queue'), enabled: admin });
  const failed = all.isError;
  useEffect(() => {
    // Spec part 1 §8: a failed queue search shows its own translated error.
    if (failed) toastError(new Error(t('tickets.newTicket.queueLoadError')));
  }, [failed, t]);
  if (!user) return { queues: [], loading: false };
  if (!admin) return { queues: user.queues, loading: false };
  return { queues: all.data ?? NO_QUEUES, loading: all.isPending };
}
