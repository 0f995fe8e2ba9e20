import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_EVENTS } from '@atende/shared';
import { act } from '@testing-library/react';
import { Server, type Socket } from 'socket.io';
import { Manager, type Socket as ClientSocket } from 'socket.io-client';
import { vi } from 'vitest';

/**
 * A real Socket.IO server standing in for ours, for tests that render the real
 * SocketProvider: it puts each connection "in its rooms" (`ready`) at once, and
 * pushes events the way our server does. Call `start` in beforeAll, `point` in
 * beforeEach (the client connects to the page's origin), `stop` in afterAll.
 */
export function standInSocketServer() {
  let http: HttpServer | null = null;
  let io: Server | null = null;
  let port = 0;
  const sockets: Socket[] = [];
  // The page's sockets (same process): whether one listens to an event yet.
  const clients: ClientSocket[] = [];
  return {
    async start() {
      const open = Manager.prototype.socket;
      vi.spyOn(Manager.prototype, 'socket').mockImplementation(function (this: Manager, ...args: Parameters<Manager['socket']>) {
        const client = open.apply(this, args);
        clients.push(client);
        return client;
      });
      http = createServer();
      io = new Server(http);
      io.on('connection', (socket) => {
        sockets.push(socket);
        socket.emit(SERVER_EVENTS.ready);
      });
      await new Promise<void>((resolve) => http!.listen(0, '127.0.0.1', resolve));
      port = (http.address() as AddressInfo).port;
    },
    point(path: string) {
      vi.stubGlobal('location', new URL(`http://127.0.0.1:${port}${path}`));
    },
    /**
     * Whether a client is connected; with an event, also whether the page listens to it
     * (its consumers got the socket after `ready`): an event pushed before that is lost.
     */
    connected: (event?: string) => sockets.some((socket) => socket.connected) && (!event || clients.some((client) => client.connected && client.hasListeners(event))),
    /** Sends an event to every connected client, as our publisher does. */
    push: (event: string, payload: unknown) => act(() => void io?.emit(event, payload)),
    async stop() {
      await io?.close();
    },
  };
}
