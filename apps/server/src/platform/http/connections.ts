import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import { isIPv6, type Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { UNAVAILABLE_RETRY_AFTER_SECONDS } from './error-handler.js';

/**
 * The listening process's HTTP connections (issue 28 defects 7 and 12):
 *
 * - a cap on simultaneous connections per client address (`MAX_CONNECTIONS_PER_IP`):
 *   one over it is destroyed as soon as it is accepted;
 * - the drain at shutdown: every request that reaches the server is answered. New
 *   requests get 503 `ERR_SERVICE_UNAVAILABLE` with `Connection: close` and
 *   `Retry-After`, answers to requests in flight carry `Connection: close`, and an
 *   idle keep-alive connection is ended with a FIN (never a reset) once it has been
 *   idle for `idleGraceMs`: a client that is about to reuse it sends its request in
 *   that time and is answered 503 instead of finding the connection gone.
 *
 * Node's `server.close()` destroys idle keep-alive connections at once
 * (`closeIdleConnections`); a request already on its way on one of them was reset.
 * During the drain that method ends idle connections the way above instead.
 *
 * The timeouts (headers, request, keep-alive) are Fastify's and Node's options (`app.ts`).
 */
export interface HttpConnections {
  /** Fastify hooks (503 while draining); on the root instance before any plugin, so every route has them. */
  registerHooks(app: FastifyInstance): void;
  /**
   * Counts the server's sockets. Call after everything that wraps the server's
   * request listeners (Socket.IO does) and before `listen`.
   */
  watch(server: Server, onRefused: (address: string, refusedSinceLastReport: number) => void): void;
  /** Starts the drain; the caller then closes the app (Fastify closes the port). */
  drain(): void;
  readonly draining: boolean;
}

export interface HttpConnectionsOptions {
  /** Simultaneous connections per client address (an IPv6 /64 counts as one address); 0: no cap. */
  maxPerAddress: number;
  /** During the drain, an idle connection is ended once idle this long (default 1000 ms). */
  idleGraceMs?: number;
  /** How often the drain looks for connections to end (default 50 ms). */
  sweepEveryMs?: number;
}

interface SocketState {
  key: string | null;
  /** Requests received and not yet answered. */
  busy: number;
  /** When the last answer ended (or the socket connected). */
  idleSince: number;
  /** `socket.bytesRead` then: more read since means a request has begun. */
  readWhenIdle: number;
  /** Handed over to a WebSocket: not HTTP any more (Socket.IO ends it itself). */
  upgraded: boolean;
  ending: boolean;
}

/** Refusals are reported at most this often (a flood must not flood the log too). */
const REPORT_EVERY_MS = 60_000;

/**
 * The address a connection is counted under: IPv4 as is (also written as IPv6,
 * `::ffff:a.b.c.d`), IPv6 by its /64 (one site's network, as one NAT address is in IPv4).
 */
export function connectionKey(address: string): string {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped?.[1]) return mapped[1];
  if (!isIPv6(address)) return address;
  const [head = '', tail = ''] = address.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = address.includes('::') ? [...left, ...Array<string>(8 - left.length - right.length).fill('0'), ...right] : left;
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, '').toLowerCase())
    .join(':')}::/64`;
}

export function createHttpConnections(options: HttpConnectionsOptions): HttpConnections {
  const idleGraceMs = options.idleGraceMs ?? 1000;
  const sweepEveryMs = options.sweepEveryMs ?? 50;
  const sockets = new Map<Socket, SocketState>();
  const perAddress = new Map<string, number>();
  let draining = false;
  let server: Server | null = null;
  let sweeper: NodeJS.Timeout | null = null;

  function sweep(): void {
    const now = Date.now();
    for (const [socket, state] of sockets) {
      if (state.upgraded || state.ending || state.busy > 0 || socket.destroyed) continue;
      // Bytes of a next request have arrived: it will be answered (503), not cut.
      if (socket.bytesRead !== state.readWhenIdle) continue;
      if (now - state.idleSince < idleGraceMs) continue;
      state.ending = true;
      // FIN after anything still being written; never a reset of a request read.
      socket.destroySoon();
    }
    if (sockets.size === 0 && sweeper) {
      clearInterval(sweeper);
      sweeper = null;
    }
  }

  return {
    get draining() {
      return draining;
    },

    registerHooks(app) {
      app.addHook('onRequest', async (_request, reply) => {
        if (!draining) return;
        return reply
          .code(503)
          .header('connection', 'close')
          .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_SECONDS))
          .send({ error: 'ERR_SERVICE_UNAVAILABLE' });
      });
      // An answer to a request that came in before the drain: the client must not reuse the connection.
      app.addHook('onSend', async (_request, reply) => {
        if (draining) reply.header('connection', 'close');
      });
    },

    watch(watched, onRefused) {
      server = watched;
      let refusedSinceReport = 0;
      let lastReport = 0;
      watched.on('connection', (socket: Socket) => {
        const address = socket.remoteAddress;
        const key = address ? connectionKey(address) : null;
        if (key && options.maxPerAddress > 0) {
          const count = perAddress.get(key) ?? 0;
          if (count >= options.maxPerAddress) {
            socket.destroy();
            refusedSinceReport++;
            if (Date.now() - lastReport >= REPORT_EVERY_MS) {
              onRefused(key, refusedSinceReport);
              lastReport = Date.now();
              refusedSinceReport = 0;
            }
            return;
          }
          perAddress.set(key, count + 1);
        }
        const state: SocketState = { key, busy: 0, idleSince: Date.now(), readWhenIdle: 0, upgraded: false, ending: false };
        sockets.set(socket, state);
        socket.once('close', () => {
          sockets.delete(socket);
          if (key && options.maxPerAddress > 0) {
            const left = (perAddress.get(key) ?? 1) - 1;
            if (left > 0) perAddress.set(key, left);
            else perAddress.delete(key);
          }
        });
      });
      watched.on('request', (request: IncomingMessage, response: ServerResponse) => {
        const state = sockets.get(request.socket);
        if (!state) return;
        state.busy++;
        response.once('close', () => {
          state.busy--;
          state.idleSince = Date.now();
          state.readWhenIdle = request.socket.bytesRead;
        });
      });
      watched.on('upgrade', (request: IncomingMessage) => {
        const state = sockets.get(request.socket);
        if (state) state.upgraded = true;
      });
    },

    drain() {
      if (draining) return;
      draining = true;
      if (!server) return;
      // Node's close() calls this to destroy idle connections: end them gracefully instead.
      server.closeIdleConnections = sweep;
      sweep();
      sweeper = setInterval(sweep, sweepEveryMs);
      sweeper.unref();
    },
  };
}
