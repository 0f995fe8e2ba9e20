/**
 * One Atende realtime node for the cross-process fan-out test: an HTTP server
 * with the socket server on the Redis streams adapter and a fake authenticate.
 * Prints `port <n>` when ready. Reads commands on stdin, one per line:
 *   emit <json: { rooms, event, payload }>   publishes through this node
 *   emit-and-die <json>                        publishes, waits for the transport's flush
 *                                              (Publisher.delivered), then SIGKILLs itself
 *   close                                      shuts down and exits
 */
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { createSocketServer } from '../platform/realtime/socket-server.js';
import { fakeAuthenticate, fakeContext } from './realtime-fixtures.js';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const streamName = process.env.REALTIME_STREAM;
if (!streamName) throw new Error('REALTIME_STREAM is required');

const logger = {
  info: () => undefined,
  warn: (o: object | string, m?: string) => process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`),
  error: (o: object | string, m?: string) => process.stderr.write(`${m ?? ''} ${JSON.stringify(o)}\n`),
};

const httpServer = createServer();
const server = await createSocketServer(httpServer, {
  authenticate: fakeAuthenticate({ 'token-a': fakeContext(1, 11), 'token-b': fakeContext(2, 21) }),
  redisUrl,
  streamName,
  logger,
  onUserStatus: async () => undefined,
});
await new Promise<void>((resolve) => httpServer.listen(0, '127.0.0.1', resolve));
process.stdout.write(`port ${(httpServer.address() as AddressInfo).port}\n`);

for await (const line of createInterface({ input: process.stdin })) {
  if (line.startsWith('emit ')) {
    const { rooms, event, payload } = JSON.parse(line.slice(5)) as { rooms: string[]; event: string; payload: unknown };
    server.transport.emit(rooms, event, payload);
    process.stdout.write('emitted\n');
  } else if (line.startsWith('emit-and-die ')) {
    const { rooms, event, payload } = JSON.parse(line.slice('emit-and-die '.length)) as { rooms: string[]; event: string; payload: unknown };
    server.transport.emit(rooms, event, payload);
    // What an ingest does before it answers a provider; then the process dies as under kill -9.
    await server.transport.flush?.();
    process.kill(process.pid, 'SIGKILL');
  } else if (line === 'close') {
    break;
  }
}
await server.close();
httpServer.close();
process.exit(0);
