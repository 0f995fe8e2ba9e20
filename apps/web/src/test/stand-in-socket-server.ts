import { createServer, type Server as HttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SERVER_EVENTS } from '@atende/shared';
import { act } from '@testing-library/react';
import { Server, type Socket } from 'socket.io';
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
  return {
    async start() {
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
    /** Whether a client is connected (its events will be heard once the provider got `ready`). */
    connected: () => sockets.some((socket) => socket.connected),
    /** Sends an event to every connected client, as our publisher does. */
    push: (event: string, payload: unknown) => act(() => void io?.emit(event, payload)),
    async stop() {
      await io?.close();
    },
  };
}
