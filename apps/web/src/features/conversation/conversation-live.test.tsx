import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_EVENTS, type PresentedMessage, type PresentedTicket } from '@atende/shared';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router';
import { Server, type Socket as ServerSocket } from 'socket.io';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { SessionProvider } from '../../api/session';
import { SocketProvider } from '../../realtime/socket';
import { buildMessage } from '../../test/build-message';
import { buildTicket } from '../../test/build-ticket';
import { buildUser, buildUserCompany } from '../../test/build-user';
import { fakeApi } from '../../test/fake-api';
import { messagesKey, ticketKey, useConversationLive } from './conversation-queries';
import { mergeMessages, type MessagesCache } from './message-timeline';

/**
 * The real session and socket provider, connected to a real Socket.IO server
 * standing in for ours: the test sees what the client emits and pushes events
 * the way the server does.
 */
let http: HttpServer;
let io: Server;
let port = 0;
/** Everything the client emitted, per connection, in order. */
const received: [string, ...unknown[]][] = [];
let connected: ServerSocket | null = null;
let connections = 0;

beforeAll(async () => {
  http = createServer();
  io = new Server(http);
  io.on('connection', (socket) => {
    connected = socket;
    connections += 1;
    socket.onAny((event: string, ...args: unknown[]) => received.push([event, ...args]));
    // As our server does once the socket's rooms are joined: the client waits for it.
    socket.emit(SERVER_EVENTS.ready);
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  port = (http.address() as AddressInfo).port;
});
afterAll(async () => {
  await io.close();
});
beforeEach(() => {
  received.length = 0;
  connected = null;
  connections = 0;
  // The client connects to the page's origin: here, the stand-in server.
  vi.stubGlobal('location', new URL(`http://127.0.0.1:${port}/tickets/u-7`));
  localStorage.setItem('token', 'test-token');
  fakeApi({ 'GET /auth/me': () => buildUser(1, { name: 'Agente', company: buildUserCompany() }) });
});

const ticket = buildTicket(7, { uuid: 'u-7', status: 'open' });
const message = (id: number, extra: Partial<PresentedMessage> = {}) => buildMessage(id, { ticketId: 7, ack: 1, createdAt: `2026-01-01T10:0${id}:00Z`, ...extra });

// Stable, as in the app: a new one would rebuild the session, and with it the socket.
const noop = () => undefined;

async function setup() {
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
      <SessionProvider onSessionEnd={noop}>
        <SocketProvider>
          <MemoryRouter initialEntries={['/tickets/u-7']}>
            <Routes>
              <Route path="*" element={<Where />} />
            </Routes>
            {children}
          </MemoryRouter>
        </SocketProvider>
      </SessionProvider>
    </QueryClientProvider>
  );
  const hook = renderHook(({ shown }: { shown: boolean }) => useConversationLive(shown ? ticket : undefined, 'u-7'), { wrapper, initialProps: { shown: true } });
  // Live once the client has joined the ticket's chat box.
  await waitFor(() => expect(received).toContainEqual(['joinChatBox', '7']));
  const server = connected!;
  /** Pushes an event as our server does (one socket delivers in order). */
  const push = (event: string, payload: unknown) => act(() => void server.emit(event, payload));
  const messages = () => mergeMessages(client.getQueryData<MessagesCache>(messagesKey(7))!.pages);
  return { client, hook, messages, push, path: () => path };
}

describe('live conversation', { timeout: 20_000 }, () => {
  it('joins the chat box of the ticket, leaves it when closed, and stops listening', async () => {
    const { hook, push, messages } = await setup();
    // The agent leaves the conversation; the app (and its socket) stays.
    hook.rerender({ shown: false });
    await waitFor(() => expect(received).toContainEqual(['leaveChatBox', '7']));
    // Over the same connection: the app's socket outlives a conversation.
    expect(connections).toBe(1);
    await push('company-3-appMessage', { action: 'create', message: message(2) });
    // Nothing listens any more, so there is no later event to wait for: give it time to arrive.
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(messages().map((m) => m.id)).toEqual([1]);
  });

  it('adds created messages once and replaces updated ones', async () => {
    const { messages, push } = await setup();
    await push('company-3-appMessage', { action: 'create', message: message(2) });
    await push('company-3-appMessage', { action: 'create', message: message(2) });
    await push('company-3-appMessage', { action: 'create', message: message(3, { ticketId: 99 }) });
    await push('company-3-appMessage', { action: 'update', message: message(1, { ack: 3 }) });
    await waitFor(() =>
      expect(messages().map((m) => [m.id, m.ack])).toEqual([
        [1, 3],
        [2, 1],
      ]),
    );
  });

  it('replaces the shown ticket on update and leaves for /tickets when it is deleted', async () => {
    const { client, path, push, messages } = await setup();
    await push('company-3-ticket', { action: 'update', ticket: { ...ticket, status: 'closed' } });
    await waitFor(() => expect(client.getQueryData<PresentedTicket>(ticketKey('u-7'))?.status).toBe('closed'));
    // Another ticket's update, then a message: once the message is in, the update was handled and ignored.
    await push('company-3-ticket', { action: 'update', ticket: { ...ticket, id: 8, status: 'pending' } });
    await push('company-3-appMessage', { action: 'create', message: message(2) });
    await waitFor(() => expect(messages().map((m) => m.id)).toEqual([1, 2]));
    expect(client.getQueryData<PresentedTicket>(ticketKey('u-7'))).toMatchObject({ id: 7, status: 'closed' });
    // A ticket that only moved (accepted, resolved, transferred) stays open here; its update follows.
    const shownPath = path();
    await push('company-3-ticket', { action: 'delete', ticketId: 7, moved: true });
    await push('company-3-appMessage', { action: 'create', message: message(3) });
    await waitFor(() => expect(messages().map((m) => m.id)).toEqual([1, 2, 3]));
    expect(path()).toBe(shownPath);
    await push('company-3-ticket', { action: 'delete', ticketId: 7 });
    await waitFor(() => expect(path()).toBe('/tickets'));
  });
});
