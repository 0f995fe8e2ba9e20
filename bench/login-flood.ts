import http from 'node:http';

export interface LoginFlood {
  /** Resolves once the server refuses the address (its first failures are behind it). */
  refusing: Promise<void>;
  /** Ends the flood; answers what it sent, how it was answered, and its rate once refused. */
  stop(): Promise<{ attempts: number; attemptsPerSecond: number; refused: number; failed: number; other: number }>;
}

/**
 * One address guessing logins as fast as it can: `connections` keep-alive clients
 * bound to `from` (another loopback address than the measured load's, so the server
 * tells them apart), each posting a wrong password for a new made-up e-mail as soon as
 * the last answer came. After the address's first failures every answer is 429.
 */
export function startLoginFlood(options: { url: string; from: string; connections: number }): LoginFlood {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL('/auth/login', options.url);
  const counts = { attempts: 0, refused: 0, failed: 0, other: 0 };
  let running = true;
  const started = performance.now();
  let refusing = () => {};
  let refusedSince: { at: number; attempts: number } | null = null;

  const once = (n: number) =>
    new Promise<void>((resolve) => {
      const body = JSON.stringify({ email: `flood-${n}@bench.invalid`, password: 'not-the-password' });
      const request = http.request(
        {
          agent,
          host: target.hostname,
          port: target.port,
          path: target.pathname,
          method: 'POST',
          localAddress: options.from,
          headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) },
        },
        (response) => {
          response.resume();
          response.on('end', () => {
            counts.attempts += 1;
            if (response.statusCode === 429) {
              counts.refused += 1;
              refusedSince ??= { at: performance.now(), attempts: counts.attempts };
              refusing();
            }
            else if (response.statusCode === 401) counts.failed += 1;
            else counts.other += 1;
            resolve();
          });
        },
      );
      request.on('error', () => {
        counts.other += 1;
        resolve();
      });
      request.end(body);
    });

  let sent = 0;
  const loops = Array.from({ length: options.connections }, async () => {
    while (running) await once(sent++);
  });

  return {
    refusing: new Promise<void>((resolve) => (refusing = resolve)),
    async stop() {
      running = false;
      await Promise.all(loops);
      agent.destroy();
      const since = refusedSince ?? { at: started, attempts: 0 };
      const seconds = (performance.now() - since.at) / 1000;
      return { ...counts, attemptsPerSecond: Math.round((counts.attempts - since.attempts) / seconds) };
    },
  };
}
