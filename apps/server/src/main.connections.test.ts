import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RawConnection, rawRequest } from './test/raw-http.js';
import { startServerProcess, type ServerProcess } from './test/server-process.js';

/**
 * Issue 28 defect 7: sockets that never send a byte were never closed, so anyone
 * could hold the server's file descriptors. Against the real process with short
 * timeouts from the environment: each state of a connection is closed within its
 * bound, connections over the cap per address are refused while another address
 * still connects, and ordinary requests, a websocket and a long-poll still work.
 */

const HEADERS_S = 2;
const REQUEST_S = 3;
const KEEP_ALIVE_S = 2;
/** Node looks for expired headers and requests every second (app.ts), and a loaded machine is slow to tell. */
const SLACK_MS = 1000 + 3000;
const CAP = 5;
const ADMIN = { email: 'process@example.com', password: 'Process123!' };

let timeouts: ServerProcess;
let capped: ServerProcess;
const open: RawConnection[] = [];
const sockets: Socket[] = [];

beforeAll(async () => {
  [timeouts, capped] = await Promise.all([
    startServerProcess({
      HTTP_HEADERS_TIMEOUT_SECONDS: String(HEADERS_S),
      HTTP_REQUEST_TIMEOUT_SECONDS: String(REQUEST_S),
      HTTP_KEEP_ALIVE_TIMEOUT_SECONDS: String(KEEP_ALIVE_S),
    }),
    startServerProcess({ MAX_CONNECTIONS_PER_IP: String(CAP) }),
  ]);
}, 90_000);

afterAll(async () => {
  for (const connection of open) connection.destroy();
  for (const socket of sockets) socket.close();
  await Promise.all([timeouts?.kill(), capped?.kill()]);
});

function connect(server: ServerProcess, localAddress = '127.0.0.1'): RawConnection {
  const connection = new RawConnection({ port: server.port, host: '127.0.0.1', localAddress });
  open.push(connection);
  return connection;
}

/** Milliseconds from now until the server closed the connection, or null if it is still open after `limitMs`. */
async function closedAfter(connection: RawConnection, limitMs: number): Promise<number | null> {
  const startedAt = Date.now();
  return (await connection.waitClosed(limitMs)) ? Date.now() - startedAt : null;
}

describe('connection timeouts of the real process', () => {
  it('closes sockets that send nothing within HTTP_HEADERS_TIMEOUT_SECONDS', async () => {
    const silent = Array.from({ length: 20 }, () => connect(timeouts));
    expect(await Promise.all(silent.map((connection) => connection.connected()))).toEqual(silent.map(() => true));
    const closed = await Promise.all(silent.map((connection) => closedAfter(connection, HEADERS_S * 1000 + SLACK_MS)));
    expect(closed.filter((ms) => ms === null)).toHaveLength(0);
    // The timeout closed them, not something earlier.
    expect(Math.min(...(closed as number[]))).toBeGreaterThanOrEqual(HEADERS_S * 1000 - 100);
  });

  it('closes a socket that sent half a header (408)', async () => {
    const half = connect(timeouts);
    expect(await half.connected()).toBe(true);
    half.write('GET /version HTTP/1.1\r\nHost: 127.0.0.1\r\n');
    expect(await closedAfter(half, HEADERS_S * 1000 + SLACK_MS)).not.toBeNull();
    expect(half.pending()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a request whose body does not arrive within HTTP_REQUEST_TIMEOUT_SECONDS (408)', async () => {
    const slow = connect(timeouts);
    expect(await slow.connected()).toBe(true);
    const body = JSON.stringify({ email: 'slow@example.com', password: 'x'.repeat(40) });
    const request = rawRequest('POST', '/auth/login', { 'Content-Type': 'application/json' }, body);
    slow.write(request.slice(0, request.length - body.length + 5));
    // A byte every 400 ms: never idle, never done in time.
    let sent = request.length - body.length + 5;
    const trickle = setInterval(() => {
      if (sent < request.length && !slow.closed) slow.write(request.slice(sent, ++sent));
    }, 400);
    try {
      expect(await closedAfter(slow, REQUEST_S * 1000 + SLACK_MS)).not.toBeNull();
    } finally {
      clearInterval(trickle);
    }
    expect(sent).toBeLessThan(request.length);
    expect(slow.pending()).toMatch(/^HTTP\/1\.1 408 /);
  });

  it('closes a keep-alive connection idle for HTTP_KEEP_ALIVE_TIMEOUT_SECONDS, after answering it', async () => {
    const idle = connect(timeouts);
    expect(await idle.connected()).toBe(true);
    idle.write(rawRequest('GET', '/version'));
    const answer = await idle.next();
    expect(answer.kind === 'response' && answer.response.status).toBe(200);
    const ms = await closedAfter(idle, KEEP_ALIVE_S * 1000 + SLACK_MS);
    expect(ms).not.toBeNull();
    expect(ms).toBeGreaterThanOrEqual(KEEP_ALIVE_S * 1000 - 100);
  });

  it('keeps serving requests, and a websocket stays connected past every HTTP timeout', async () => {
    expect((await fetch(`${timeouts.url}/version`)).status).toBe(200);
    const login = await fetch(`${timeouts.url}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(ADMIN),
    });
    expect(login.status).toBe(200);
    const { token } = (await login.json()) as { token: string };

    // The server's Socket.IO speaks websocket only (no long-polling): its HTTP request is the upgrade.
    const socket = io(timeouts.url, { transports: ['websocket'], query: { token }, reconnection: false });
    sockets.push(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once('ready', () => resolve());
      socket.once('connect_error', reject);
    });
    const disconnects: string[] = [];
    socket.on('disconnect', (reason) => disconnects.push(reason));
    // Silent past every timeout (the server pings every 18 s).
    await new Promise((resolve) => setTimeout(resolve, (REQUEST_S + KEEP_ALIVE_S) * 1000 + SLACK_MS));
    expect(disconnects).toEqual([]);
    expect(socket.connected).toBe(true);
    expect((await fetch(`${timeouts.url}/version`)).status).toBe(200);
  }, 40_000);
});

describe('connections per client address (MAX_CONNECTIONS_PER_IP)', () => {
  it('refuses connections over the cap from one address while another address still connects', async () => {
    const held: RawConnection[] = [];
    for (let i = 0; i < CAP; i++) {
      const connection = connect(capped);
      expect(await connection.connected()).toBe(true);
      // Answered: the server has counted it.
      connection.write(rawRequest('GET', '/version'));
      const answer = await connection.next();
      expect(answer.kind === 'response' && answer.response.status).toBe(200);
      held.push(connection);
    }

    const over = connect(capped);
    expect(await over.connected()).toBe(true);
    over.write(rawRequest('GET', '/version'));
    // Closed by the server at once, without an answer.
    expect(await closedAfter(over, 2000)).not.toBeNull();
    expect(over.pending()).toBe('');

    const elsewhere = connect(capped, '127.0.0.2');
    expect(await elsewhere.connected()).toBe(true);
    elsewhere.write(rawRequest('GET', '/version'));
    const answer = await elsewhere.next();
    expect(answer.kind === 'response' && answer.response.status).toBe(200);

    // A connection that ends frees its place.
    held[0]?.destroy();
    let again: number | null = null;
    for (let attempt = 0; attempt < 20 && again !== 200; attempt++) {
      const connection = connect(capped);
      if ((await connection.connected()) !== true) continue;
      connection.write(rawRequest('GET', '/version'));
      const outcome = await connection.next();
      again = outcome.kind === 'response' ? outcome.response.status : null;
      if (again !== 200) await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(again).toBe(200);
  });
});
