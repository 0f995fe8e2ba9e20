import type { PresentedMessage } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ToastHost } from '../../components/toast';
import { afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { setupI18n } from '../../i18n';
import { buildMessage } from '../../test/build-message';
import { buildTicket } from '../../test/build-ticket';
import { Composer } from './composer';
import { MessageList } from './message-list';

/*
 * Pending and failed sends in the conversation, with the real session, HTTP
 * client, query hooks and bubbles: only the network (fetch) is stubbed.
 */

const ticket = buildTicket(7, { uuid: 'u-7', status: 'open' });
const message = (id: number, extra: Partial<PresentedMessage>): PresentedMessage => buildMessage(id, { ticketId: 7, userId: 2, fromMe: true, source: 'agent', ...extra });

const fetchMock = vi.fn<typeof fetch>();
const json = (body: unknown, status = 200) => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
const calls = (part: string) => fetchMock.mock.calls.filter(([url, init]) => String(url).includes(part) && (init?.method ?? 'GET') === 'POST');

beforeAll(() => {
  localStorage.setItem('i18nextLng', 'en');
  setupI18n();
});
beforeEach(() => {
  fetchMock.mockReset();
  vi.stubGlobal('fetch', fetchMock);
});
afterEach(() => vi.unstubAllGlobals());

/** Serves the conversation page, then answers each retry with `retryAnswer`. */
function serve(messages: PresentedMessage[], retryAnswer: () => Response) {
  fetchMock.mockImplementation(async (input, init) => {
    const url = String(input);
    if (url.includes('/retry') && init?.method === 'POST') return retryAnswer();
    if (url.includes('/messages/7')) return json({ messages, ticket, hasMore: false });
    return json({ error: 'ERR_NOT_FOUND' }, 404);
  });
  render(
    <ToastHost>
      <SessionProvider onSessionEnd={() => undefined}>
        <QueryClientProvider client={new QueryClient()}>
          <MessageList ticketId={7} isGroup={false} />
        </QueryClientProvider>
      </SessionProvider>
    </ToastHost>,
  );
}

const bubble = async (id: number) => {
  const items = await screen.findAllByTestId('message-item');
  const found = items.find((item) => item.getAttribute('data-message-id') === String(id));
  if (!found) throw new Error(`no message ${id}`);
  return found;
};

describe('send status in the conversation', () => {
  it('shows a pending message with the clock, and a failed one with its reason and a Retry that settles it', async () => {
    const failed = message(2, { body: 'Segue o orçamento', sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
    serve([message(1, { body: 'Enviando...', sendStatus: 'pending' }), failed], () => json({ ...failed, sendStatus: 'sent', sendError: null, ack: 1 }));

    const pending = await bubble(1);
    expect(within(pending).getByTestId('message-ack').getAttribute('data-ack')).toBe('0');
    expect(within(pending).getByTitle('Sending')).toBeTruthy();
    expect(within(pending).queryByTestId('message-failed')).toBeNull();

    const refused = await bubble(2);
    expect(within(refused).queryByTestId('message-ack')).toBeNull();
    const reason = 'Not sent: Could not send the message. Check the connections page.';
    expect(within(refused).getByTitle(reason)).toBeTruthy();
    await userEvent.hover(within(refused).getByTestId('message-failed-icon'));
    expect(await screen.findByRole('tooltip')).toHaveProperty('textContent', reason);

    await userEvent.click(within(refused).getByTestId('message-retry'));
    await waitFor(async () => expect(within(await bubble(2)).queryByTestId('message-failed')).toBeNull());
    expect(within(await bubble(2)).getByTestId('message-ack').getAttribute('data-ack')).toBe('1');
    expect(calls('/messages/2/retry')).toHaveLength(1);
  });

  it('a retry the channel refuses again keeps the message failed, with the new reason', async () => {
    const failed = message(3, { sendStatus: 'failed', sendError: 'ERR_SEND_INTERRUPTED' });
    serve([failed], () => json({ error: 'ERR_WAPP_NOT_INITIALIZED', messages: [{ ...failed, sendError: 'ERR_WAPP_NOT_INITIALIZED' }] }, 400));

    const refused = await bubble(3);
    expect(within(refused).getByTitle('Not sent: Sending was interrupted (the server stopped). Try again.')).toBeTruthy();
    await userEvent.click(within(refused).getByTestId('message-retry'));
    await waitFor(async () => expect(within(await bubble(3)).getByTitle('Not sent: This connection is not started. Check the connections page.')).toBeTruthy());
    expect(within(await bubble(3)).getByTestId('message-retry')).toBeTruthy();
    expect(calls('/messages/3/retry')).toHaveLength(1);
  });
});

describe('composer', () => {
  it('a send stored but refused by the channel is not given back to the input: it is in the list, failed', async () => {
    const refused = message(9, { body: 'Olá!', sendStatus: 'failed', sendError: 'ERR_SENDING_WAPP_MSG' });
    fetchMock.mockImplementation(async (input, init) => {
      const url = String(input);
      if (url.includes('/messages/7') && init?.method === 'POST') return json({ error: 'ERR_SENDING_WAPP_MSG', messages: [refused] }, 400);
      if (url.includes('/messages/7')) return json({ messages: [], ticket, hasMore: false });
      return json([]);
    });
    render(
      <ToastHost>
        <SessionProvider onSessionEnd={() => undefined}>
          <QueryClientProvider client={new QueryClient()}>
            <MessageList ticketId={7} isGroup={false} />
            <Composer ticket={ticket} quoted={null} onClearQuoted={() => undefined} />
          </QueryClientProvider>
        </SessionProvider>
      </ToastHost>,
    );
    await screen.findByText('No messages yet.');
    const input = screen.getByTestId('composer-input');
    await userEvent.type(input, 'Olá!{Enter}');
    const shown = await bubble(9);
    expect(within(shown).getByTestId('message-retry')).toBeTruthy();
    expect(input).toHaveProperty('value', '');
    expect(await screen.findByText('Could not send the message. Check the connections page.')).toBeTruthy();
    expect(calls('/messages/7')).toHaveLength(1);
  });
});
