import net from 'node:net';

/**
 * A TCP relay in front of PostgreSQL that counts the statements its clients run,
 * read from the wire protocol (v3): each simple `Query` ('Q') and each extended
 * `Execute` ('E') is one statement, BEGIN and COMMIT included. A server started
 * with the relay's URL is measured without any change to its code.
 */
export interface WireCounter {
  /** The database URL with the relay's host and port. */
  url: string;
  statements(): number;
  close(): Promise<void>;
}

export async function startWireCounter(databaseUrl: string): Promise<WireCounter> {
  const target = new URL(databaseUrl);
  let statements = 0;
  const sockets = new Set<net.Socket>();
  const server = net.createServer((client) => {
    const upstream = net.connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    let pending = Buffer.alloc(0);
    let started = false;
    client.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      // The startup message has no type byte; every later one is type, length (self-inclusive), body.
      for (;;) {
        if (!started) {
          if (pending.length < 4) break;
          const length = pending.readUInt32BE(0);
          if (pending.length < length) break;
          started = true;
          pending = pending.subarray(length);
          continue;
        }
        if (pending.length < 5) break;
        const length = pending.readUInt32BE(1);
        if (pending.length < 1 + length) break;
        const type = pending[0];
        if (type === 0x51 || type === 0x45) statements += 1;
        pending = pending.subarray(1 + length);
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    const end = () => {
      client.destroy();
      upstream.destroy();
      sockets.delete(client);
      sockets.delete(upstream);
    };
    client.on('close', end).on('error', end);
    upstream.on('close', end).on('error', end);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  const url = new URL(databaseUrl);
  url.hostname = '127.0.0.1';
  url.port = String(address.port);
  return {
    url: url.toString(),
    statements: () => statements,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
