import type { PresentedTicket } from '@atende/shared';
import { useQueryClient } from '@tanstack/react-query';
import i18next from 'i18next';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { ApiError } from '../../api/http-client';
import { useSession } from '../../api/session';
import { focusMainContent } from '../../components/main-content';
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

/** Marks the tickets manager's tab rows: where focus goes when the conversation that had it goes away. */
export const TICKET_TABS_ATTRIBUTE = 'data-ticket-tabs';

/**
 * After an action that took away what had focus (the closed ticket's conversation, its row in
 * a list), focus goes to the selected tab of the list the agent works from (the innermost, so
 * "Attending" or "Waiting"), from where Tab reaches the next ticket; else to the page's heading.
 * Focus the user put elsewhere meanwhile stays where it is.
 */
function refocusAfterLeaving(): void {
  const active = document.activeElement;
  if (active && active !== document.body && active.isConnected) return;
  const selected = document.querySelectorAll<HTMLElement>(`[${TICKET_TABS_ATTRIBUTE}] [role="tab"][aria-selected="true"]`);
  const tab = selected[selected.length - 1];
  if (tab) tab.focus();
  else focusMainContent();
}

/** Leaving waits for the list to render where the conversation was. */
const REFOCUS_DELAY_MS = 50;

/**
 * The ticket as the agent saw it when acting: sent with every change (`expected`), so a
 * change made meanwhile by someone else (an accept, a transfer, a close) is answered 409
 * instead of being overwritten (ARCHITECTURE.md §3 rule 16).
 */
function seen(ticket: PresentedTicket) {
  return { expected: { status: ticket.status, userId: ticket.userId, queueId: ticket.queueId } };
}

const CONFLICT_TEXTS: Record<string, string> = {
  ERR_TICKET_ALREADY_ACCEPTED: 'tickets.conflict.accepted',
  ERR_TICKET_ALREADY_CLOSED: 'tickets.conflict.closed',
  ERR_TICKET_CHANGED: 'tickets.conflict.changed',
};

/** A lost race: the ticket as the winner left it and the toast naming who has it ("Ticket already accepted by Ana"). */
function ticketConflict(error: unknown): { ticket: PresentedTicket | null; text: string } | null {
  if (!(error instanceof ApiError) || error.status !== 409 || !error.code) return null;
  const key = CONFLICT_TEXTS[error.code];
  if (!key) return null;
  const name = typeof error.data.userName === 'string' ? error.data.userName : null;
  const ticket = typeof error.data.ticket === 'object' && error.data.ticket !== null ? (error.data.ticket as PresentedTicket) : null;
  return { ticket, text: name ? i18next.t(key, { name }) : i18next.t(`errors.${error.code}`) };
}

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
    async (work: () => Promise<PresentedTicket | void>, goTo: (ticket: PresentedTicket | void) => string, state?: FollowTicketState) => {
      setBusy(true);
      try {
        const ticket = await work();
        if (ticket) queryClient.setQueryData(['ticket', ticket.uuid], ticket);
        await queryClient.invalidateQueries({ queryKey: ['tickets'] });
        const destination = goTo(ticket);
        void navigate(destination, state ? { state } : undefined);
        if (!/^\/tickets\/[^/]+$/.test(destination)) setTimeout(refocusAfterLeaving, REFOCUS_DELAY_MS);
        return ticket;
      } catch (error) {
        const conflict = ticketConflict(error);
        if (conflict) {
          // Show the ticket as it is now; the lists refetch.
          if (conflict.ticket) queryClient.setQueryData(['ticket', conflict.ticket.uuid], conflict.ticket);
          void queryClient.invalidateQueries({ queryKey: ['tickets'] });
          toastError(new Error(conflict.text));
        } else {
          toastError(error);
        }
        return undefined;
      } finally {
        setBusy(false);
      }
    },
    [navigate, queryClient],
  );

  const update = useCallback((ticket: PresentedTicket, body: Record<string, unknown>) => api.put<PresentedTicket>(`/tickets/${ticket.id}`, body), [api]);

  return {
    busy,
    accept: (ticket: PresentedTicket) =>
      run(
        () => update(ticket, { status: 'open', userId: user?.id, queueId: ticket.queueId, ...seen(ticket) }),
        (t) => `/tickets/${t ? t.uuid : ticket.uuid}`,
        FOLLOW_TO_OPEN,
      ),
    returnToPending: (ticket: PresentedTicket) => run(() => update(ticket, { status: 'pending', userId: null, ...seen(ticket) }), () => '/tickets'),
    close: (ticket: PresentedTicket) =>
      run(
        () =>
          update(ticket, { status: 'closed', userId: user?.id, queueId: ticket.queueId, useIntegration: false, promptId: null, integrationId: null, ...seen(ticket) }),
        () => '/tickets/',
      ),
    reopen: (ticket: PresentedTicket) =>
      run(
        () => update(ticket, { status: 'open', userId: user?.id, queueId: ticket.queueId, ...seen(ticket) }),
        (t) => `/tickets/${t ? t.uuid : ticket.uuid}`,
        FOLLOW_TO_OPEN,
      ),
    transfer: (ticket: PresentedTicket, input: TransferInput) =>
      run(
        () =>
          update(ticket, {
            userId: input.userId,
            queueId: input.queueId,
            whatsappId: input.whatsappId,
            status: input.userId ? 'open' : 'pending',
            ...seen(ticket),
          }),
        () => '/tickets',
      ),
    remove: (ticket: PresentedTicket) =>
      run(async () => {
        await api.delete(`/tickets/${ticket.id}`);
      }, () => '/tickets'),
  };
}
