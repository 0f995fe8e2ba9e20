import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';

/**
 * A local WebSocket endpoint standing in for WhatsApp Web's (there is no
 * internet here). It completes no handshake: in `hold` mode it keeps each
 * connection open and silent (a session stays OPENING while a test feeds
 * Baileys' event emitter), in `close` mode it hangs up at once (a failed
 * connection attempt). Either way it counts the attempts.
 */
export interface FakeWaWebSocket {
  url: string;
  mode: 'hold' | 'close';
  /** Connection attempts so far. */
  readonly attempts: number;
  /** Resolves once at least `count` attempts were made. */
  waitForAttempts(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFakeWaWebSocket(mode: 'hold' | 'close' = 'hold'): Promise<FakeWaWebSocket> {
  const server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => server.once('listening', () => resolve()));
  const { port } = server.address() as AddressInfo;
  const sockets = new Set<WebSocket>();
  let attempts = 0;
  const fake: FakeWaWebSocket = {
    url: `ws://127.0.0.1:${port}/ws/chat`,
    mode,
    get attempts() {
      return attempts;
    },
    async waitForAttempts(count, timeoutMs = 10_000) {
      const started = Date.now();
      while (attempts < count) {
        if (Date.now() - started > timeoutMs) throw new Error(`expected ${count} connection attempts, saw ${attempts}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.terminate();
        server.close(() => resolve());
      }),
  };
  server.on('connection', (socket) => {
    attempts += 1;
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    // Frames from the client (the noise handshake) are ignored.
    socket.on('message', () => undefined);
    if (fake.mode === 'close') socket.close();
  });
  return fake;
}
