import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { trackJoins } from './socket';

/** A socket double that records what reaches the wire and lets the test fire `connect`. */
function fakeSocket() {
  const sent: unknown[][] = [];
  const handlers = new Map<string, () => void>();
  const socket = {
    recovered: false,
    emit: (...args: unknown[]) => {
      sent.push(args);
      return socket;
    },
    on: (event: string, handler: () => void) => {
      handlers.set(event, handler);
      return socket;
    },
  };
  return { socket: socket as unknown as Socket, sent, reconnect: (recovered: boolean) => ((socket.recovered = recovered), handlers.get('connect')?.()) };
}

describe('socket joins', () => {
  it('keeps a room while another screen still uses it', () => {
    const { socket, sent } = fakeSocket();
    trackJoins(socket);
    socket.emit('joinNotification');
    socket.emit('joinNotification');
    socket.emit('leaveNotification');
    expect(sent.filter(([event]) => event === 'leaveNotification')).toHaveLength(0);
    socket.emit('leaveNotification');
    expect(sent.filter(([event]) => event === 'leaveNotification')).toHaveLength(1);
  });

  it('sends the joins again after a reconnect without recovery, not after a recovered one', () => {
    const { socket, sent, reconnect } = fakeSocket();
    trackJoins(socket);
    socket.emit('joinTickets', 'open');
    socket.emit('joinChatBox', '12', () => undefined);
    socket.emit('joinTickets', 'closed');
    socket.emit('leaveTickets', 'closed');
    sent.length = 0;
    reconnect(true);
    expect(sent).toEqual([]);
    reconnect(false);
    expect(sent).toEqual([
      ['joinTickets', 'open'],
      ['joinChatBox', '12'],
    ]);
  });
});
