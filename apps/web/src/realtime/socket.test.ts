import type { Socket } from 'socket.io-client';
import { describe, expect, it } from 'vitest';
import { refreshDelay, trackJoins } from './socket';

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

/** An unsigned token with these claims: only its payload is read on the client. */
function tokenWith(claims: { iat: number; exp: number }): string {
  const encode = (value: object) => btoa(JSON.stringify(value)).replace(/=+$/, '').replace(/\+/g, '-').replace(/\//g, '_');
  return `${encode({ alg: 'HS256' })}.${encode(claims)}.signature`;
}

describe('token refresh ahead of expiry', () => {
  const now = 1_800_000_000_000;
  const at = (seconds: number) => now / 1000 + seconds;

  it('refreshes a 15-minute token a minute before it expires, so the server never ends the socket', () => {
    expect(refreshDelay(tokenWith({ iat: at(0), exp: at(900) }), now)).toBe(840_000);
  });

  it('refreshes a short-lived token a quarter of its life early, and an expired one at once', () => {
    expect(refreshDelay(tokenWith({ iat: at(0), exp: at(8) }), now)).toBe(6_000);
    expect(refreshDelay(tokenWith({ iat: at(-900), exp: at(-1) }), now)).toBe(0);
  });

  it('schedules nothing for what is not a token', () => {
    expect(refreshDelay(null, now)).toBeNull();
    expect(refreshDelay('garbage', now)).toBeNull();
  });
});
