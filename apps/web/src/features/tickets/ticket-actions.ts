import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { useSession } from '../../api/session';
import type { Ticket } from '../../api/desk-types';
import { toastError } from '../../components/toast';

/**
 * Router state of a navigation that put the ticket in the assigned list
 * (accept, reopen): the tickets manager shows that list, so the ticket is not
 * left behind on the Waiting or Closed tab it came from.
 */
export interface FollowTicketState {
  followTicket: 'open';
}

export function followsTicketToOpen(state: unknown): boolean {
  return typeof state === 'object' && state !== null && (state as Partial<FollowTicketState>).followTicket === 'open';
}

const FOLLOW_TO_OPEN: FollowTicketState = { followTicket: 'open' };

export interface TransferInput {
  userId: number | null;
  queueId: number | null;
  whatsappId: number | null;
}

/**
 * The ticket state table of spec part 1 §4 as the buttons use it: every
 * action's payload and where the user goes afterwards, in one place for the
 * list items and the conversation header.
 */
export function useTicketActions() {
  const { api, user } = useSession();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);

  const run = useCallback(
    async (work: () => Promise<Ticket | void>, goTo: (ticket: Ticket | void) => string, state?: FollowTicketState) => {
      setBusy(true);
      try {
        const ticket = await work();
        if (ticket) queryClient.setQueryData(['ticket', ticket.uuid], ticket);
        await queryClient.invalidateQueries({ queryKey: ['tickets'] });
        void navigate(goTo(ticket), state ? { state } : undefined);
        return ticket;
      } catch (error) {
        toastError(error);
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [navigate, queryClient],
  );

  const update = useCallback((ticket: Ticket, body: Record<string, unknown>) => api.put<Ticket>(`/tickets/${ticket.id}`, body), [api]);

  return {
    busy,
    accept: (ticket: Ticket) =>
      run(() => update(ticket, { status: 'open', userId: user?.id, queueId: ticket.queueId }), (t) => `/tickets/${t ? t.uuid : ticket.uuid}`, FOLLOW_TO_OPEN),
    returnToPending: (ticket: Ticket) => run(() => update(ticket, { status: 'pending', userId: null }), () => '/tickets'),
    close: (ticket: Ticket) =>
      run(
        () => update(ticket, { status: 'closed', userId: user?.id, queueId: ticket.queueId, useIntegration: false, promptId: null, integrationId: null }),
        () => '/tickets/',
      ),
    reopen: (ticket: Ticket) =>
      run(() => update(ticket, { status: 'open', userId: user?.id, queueId: ticket.queueId }), (t) => `/tickets/${t ? t.uuid : ticket.uuid}`, FOLLOW_TO_OPEN),
    transfer: (ticket: Ticket, input: TransferInput) =>
      run(
        () => update(ticket, { userId: input.userId, queueId: input.queueId, whatsappId: input.whatsappId, status: input.userId ? 'open' : 'pending' }),
        () => '/tickets',
      ),
    remove: (ticket: Ticket) =>
      run(async () => {
        await api.delete(`/tickets/${ticket.id}`);
      }, () => '/tickets'),
  };
}
