import http from 'node:http';

export interface LoadResult {
  requests: number;
  errors: number;
  rps: number;
  p50: number;
  p90: number;
  p99: number;
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

export function summarize(latencies: number[], errors: number, seconds: number): LoadResult {
  const sorted = [...latencies].sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 100) / 100;
  return {
    requests: latencies.length,
    errors,
    rps: round(latencies.length / seconds),
    p50: round(percentile(sorted, 50)),
    p90: round(percentile(sorted, 90)),
    p99: round(percentile(sorted, 99)),
  };
}

/**
 * A closed-loop load generator: `connections` keep-alive clients each send the
 * next request as soon as the last answered. Latencies of the warm-up are dropped.
 */
export async function runLoad(options: { url: string; token: string; connections: number; warmupSeconds: number; seconds: number }): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: options.connections });
  const target = new URL(options.url);
  const latencies: number[] = [];
  let errors = 0;
  let measuring = false;
  let running = true;

  const once = () =>
    new Promise<void>((resolve) => {
      const started = performance.now();
      const request = http.request(
        { agent, host: target.hostname, port: target.port, path: target.pathname + target.search, headers: { authorization: `Bearer ${options.token}`, accept: 'application/json' } },
        (response) => {
          response.resume();
          response.on('end', () => {
            if (measuring) {
              if (response.statusCode === 200) latencies.push(performance.now() - started);
              else errors += 1;
            }
            resolve();
          });
        },
      );
      request.on('error', () => {
        if (measuring) errors += 1;
        resolve();
      });
      request.end();
    });

  const loops = Array.from({ length: options.connections }, async () => {
    while (running) await once();
  });
  await new Promise((resolve) => setTimeout(resolve, options.warmupSeconds * 1000));
  measuring = true;
  const started = performance.now();
  await new Promise((resolve) => setTimeout(resolve, options.seconds * 1000));
  measuring = false;
  const elapsed = (performance.now() - started) / 1000;
  running = false;
  await Promise.all(loops);
  agent.destroy();
  return summarize(latencies, errors, elapsed);
}
