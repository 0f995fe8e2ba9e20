import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { describe, expect, it, vi } from 'vitest';
import type { Message, Ticket } from '../../api/desk-types';
import { messagesKey, ticketKey, useConversationLive } from './conversation-queries';
import { mergeMessages, type MessagesCache } from './message-timeline';

type Handler = (payload: unknown) => void;
const handlers = new Map<string, Handler>();
const emitted: unknown[][] = [];
const socket = {
  emit: (...args: unknown[]) => emitted.push(args),
  on: (event: string, handler: Handler) => handlers.set(event, handler),
  off: (event: string) => handlers.delete(event),
};
vi.mock('../../realtime/socket', () => ({ useSocket: () => socket }));

const ticket = { id: 7, uuid: 'u-7', companyId: 3, status: 'open' } as Ticket;
const message = (id: number, extra: Partial<Message> = {}) => ({ id, ticketId: 7, body: `m${id}`, ack: 1, createdAt: `2026-01-01T10:0${id}:00Z`, ...extra }) as Message;

function setup() {
  const client = new QueryClient();
  client.setQueryData<MessagesCache>(messagesKey(7), { pages: [{ messages: [message(1)], hasMore: false, ticket }], pageParams: [1] });
  client.setQueryData(ticketKey('u-7'), ticket);
  let path = '';
  function Where() {
    path = useLocation().pathname;
    return null;
  }
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={['/tickets/u-7']}>
        <Routes>
          <Route path="*" element={<Where />} />
        </Routes>
        {children}
      </MemoryRouter>
    </QueryClientProvider>
  );
  const hook = renderHook(() => useConversationLive(ticket, 'u-7'), { wrapper });
  const messages = () => mergeMessages(client.getQueryData<MessagesCache>(messagesKey(7))!.pages);
  return { client, hook, messages, path: () => path };
}

describe('live conversation', () => {
  it('joins the chat box of the ticket and leaves it when closed', () => {
    emitted.length = 0;
    const { hook } = setup();
    expect(emitted).toContainEqual(['joinChatBox', '7']);
    hook.unmount();
    expect(emitted).toContainEqual(['leaveChatBox', '7']);
    expect(handlers.size).toBe(0);
  });

  it('adds created messages once and replaces updated ones', () => {
    const { messages } = setup();
    const onMessage = handlers.get('company-3-appMessage')!;
    act(() => onMessage({ action: 'create', message: message(2) }));
    act(() => onMessage({ action: 'create', message: message(2) }));
    act(() => onMessage({ action: 'create', message: message(3, { ticketId: 99 }) }));
    act(() => onMessage({ action: 'update', message: message(1, { ack: 3 }) }));
    expect(messages().map((m) => [m.id, m.ack])).toEqual([
      [1, 3],
      [2, 1],
    ]);
  });

  it('replaces the shown ticket on update and leaves for /tickets when it is deleted', () => {
    const { client, path } = setup();
    const onTicket = handlers.get('company-3-ticket')!;
    act(() => onTicket({ action: 'update', ticket: { ...ticket, id: 8, status: 'closed' } }));
    expect(client.getQueryData<Ticket>(ticketKey('u-7'))?.status).toBe('open');
    act(() => onTicket({ action: 'update', ticket: { ...ticket, status: 'closed' } }));
    expect(client.getQueryData<Ticket>(ticketKey('u-7'))?.status).toBe('closed');
    act(() => onTicket({ action: 'delete', ticketId: 7 }));
    expect(path()).toBe('/tickets');
  });
});
