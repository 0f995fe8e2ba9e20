import { io, type Socket } from 'socket.io-client';
import type { App } from '../app.js';

export interface SocketClients {
  /** A socket of the token's session, resolved once connected (or once the server said `ready`). */
  connect(token: string, until?: 'connect' | 'ready'): Promise<Socket>;
  closeAll(): void;
}

/** Socket.IO clients of a test app that listens (`createTestContext({ realtime: true, listen: true })`). */
export function socketClients(app: App): SocketClients {
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('not listening');
  const url = `http://127.0.0.1:${address.port}`;
  const sockets: Socket[] = [];
  return {
    async connect(token, until = 'connect') {
      const socket = io(url, { transports: ['websocket'], query: { token }, reconnection: false });
      sockets.push(socket);
      await new Promise<void>((resolve, reject) => {
        socket.once(until, () => resolve());
        socket.once('connect_error', reject);
      });
      return socket;
    },
    closeAll() {
      for (const socket of sockets) socket.close();
    },
  };
}
