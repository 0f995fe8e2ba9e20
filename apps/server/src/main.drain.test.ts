import { afterAll, describe, expect, it } from 'vitest';
import { RawConnection, rawRequest } from './test/raw-http.js';
import { startServerProcess, type ServerProcess } from './test/server-process.js';

/**
 * Issue 28 defect 12: requests that arrive on open keep-alive connections while
 * the server stops are answered (503, `Connection: close`, `Retry-After`), never
 * reset. Raw sockets tell exactly what happened to each request: a complete
 * answer, a FIN that came before the request was read (the client's retry case),
 * or a request that reached the server and was dropped.
 */

const CLIENTS = 12;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Tally {
  sent: number;
  ok: number;
  unavailable: number;
  /** FIN between requests, seen before the next request was written. */
  closedBetween: number;
  /** The server's FIN came before it read a request just written: the client's retry case. */
  closedBeforeRead: number;
  /** Connections refused once the port was closed. */
  refused: number;
  /** Requests that reached the server and got no complete answer. */
  dropped: string[];
  /** Answers that break the rule (a 503 without Connection: close or Retry-After, another status). */
  wrong: string[];
}

async function client(server: ServerProcess, tally: Tally, signalled: () => boolean, exited: () => boolean): Promise<void> {
  while (!exited()) {
    const connection = new RawConnection({ port: server.port, host: '127.0.0.1' });
    const connected = await connection.connected();
    if (connected !== true) {
      if (!signalled()) tally.wrong.push(`connect before SIGTERM: ${connected}`);
      tally.refused++;
      // The port is closed: this client is done.
      if (connected === 'ECONNREFUSED') return;
      continue;
    }
    for (;;) {
      if (connection.ended || connection.closed) {
        tally.closedBetween++;
        break;
      }
      connection.write(rawRequest('GET', '/version'));
      tally.sent++;
      const outcome = await connection.next();
      if (outcome.kind === 'closed-before-read') {
        tally.closedBeforeRead++;
        break;
      }
      if (outcome.kind === 'dropped') {
        tally.dropped.push(`${outcome.reason} (${signalled() ? 'after' : 'before'} SIGTERM)`);
        break;
      }
      const { status, headers } = outcome.response;
      if (status === 200) {
        tally.ok++;
        if (headers.connection?.toLowerCase() === 'close') break;
        continue;
      }
      if (status === 503 && headers.connection?.toLowerCase() === 'close' && Number(headers['retry-after']) > 0) {
        tally.unavailable++;
      } else {
        tally.wrong.push(`${status} connection=${headers.connection ?? '-'} retry-after=${headers['retry-after'] ?? '-'}`);
      }
      break;
    }
    connection.destroy();
  }
}

let server: ServerProcess | null = null;

afterAll(async () => {
  await server?.kill();
});

describe('keep-alive requests while the real process stops', () => {
  it('answers every request that reaches it (200, or 503 with Connection: close and Retry-After) and lets a request in flight finish', async () => {
    server = await startServerProcess();
    const running = server;
    const tally: Tally = { sent: 0, ok: 0, unavailable: 0, closedBetween: 0, closedBeforeRead: 0, refused: 0, dropped: [], wrong: [] };
    let signalled = false;
    let exited = false;
    const exitCode = running.exited.then((code) => {
      exited = true;
      return code;
    });

    const clients = Array.from({ length: CLIENTS }, () =>
      client(
        running,
        tally,
        () => signalled,
        () => exited,
      ),
    );
    // A request in flight at SIGTERM: headers and half the body before, the rest after.
    const body = JSON.stringify({ email: 'nobody@example.com', password: 'not-the-password' });
    const slow = new RawConnection({ port: running.port, host: '127.0.0.1' });
    expect(await slow.connected()).toBe(true);
    slow.write(rawRequest('POST', '/auth/login', { 'Content-Type': 'application/json' }, body).slice(0, -10));

    while (tally.ok < 300 && tally.dropped.length === 0 && tally.wrong.length === 0) await sleep(20);
    signalled = true;
    running.child.kill('SIGTERM');
    await sleep(300);
    slow.write(body.slice(-10));
    const inFlight = await slow.next();

    expect(await exitCode, running.output()).toBe(0);
    await Promise.all(clients);
    console.log(
      `keep-alive drain: ${tally.sent} requests sent on ${CLIENTS} connections in a loop; ${tally.ok} × 200, ${tally.unavailable} × 503 + Connection: close,` +
        ` ${tally.closedBetween} closed between requests, ${tally.closedBeforeRead} closed before the request was read (retry), ${tally.refused} refused after the port closed,` +
        ` ${tally.dropped.length} dropped after being sent, ${tally.wrong.length} wrong answers`,
    );
    expect(tally.dropped).toEqual([]);
    expect(tally.wrong).toEqual([]);
    // The stop happened under load: requests on open connections were answered 503.
    expect(tally.unavailable).toBeGreaterThan(0);
    expect(inFlight.kind === 'response' ? { status: inFlight.response.status, connection: inFlight.response.headers.connection } : inFlight).toEqual({
      status: 401,
      connection: 'close',
    });
  }, 120_000);
});
