import type { LightMyRequestResponse, RouteOptions } from 'fastify';
import { routeKey } from '@atende/shared';
import type { Probe } from './route-cases.js';
import type { TestContext } from './test-app.js';

/** Collects the app's real route table (`METHOD /path`, HEAD folded into GET) through `onRoute`. */
export function routeCollector(): { onRoute: (route: RouteOptions) => void; keys: () => string[] } {
  const seen = new Set<string>();
  return {
    onRoute(route) {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) seen.add(routeKey(method, route.url));
    },
    keys: () => [...seen].sort(),
  };
}

/** The method of a route key. */
export function methodOf(key: string): 'GET' | 'POST' | 'PUT' | 'DELETE' {
  return key.slice(0, key.indexOf(' ')) as 'GET' | 'POST' | 'PUT' | 'DELETE';
}

/** Deletes whose cascade takes other fixture records with them: the very last. */
const CASCADING_DELETES = ['DELETE /contacts/:id', 'DELETE /whatsapp/:id', 'DELETE /companies/:id'];

/**
 * Deleting routes last (a probe that wrongly deleted something cannot hide another
 * route's leak), sub-resources before their parents, cascading ones at the end.
 */
export function deletesLast(keys: string[]): string[] {
  const rank = (key: string) => (methodOf(key) !== 'DELETE' ? 0 : CASCADING_DELETES.includes(key) ? 2 : 1);
  return [...keys].sort((x, y) => rank(x) - rank(y) || (rank(x) === 1 ? y.length - x.length : 0) || x.localeCompare(y));
}

const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000a49444154789c6300010000050001', 'hex');

/** Sends one probe as the holder of `token` (none when null or the probe is anonymous). */
export function sendProbe(t: TestContext, token: string | null, method: string, probe: Probe): Promise<LightMyRequestResponse> {
  const headers: Record<string, string> = {};
  if (token && !probe.anonymous) headers.authorization = `Bearer ${token}`;
  if (probe.file) {
    const boundary = '----route-probe';
    headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
    const payload = Buffer.concat([
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="probe.png"\r\nContent-Type: image/png\r\n\r\n`),
      PNG,
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ]);
    return t.app.inject({ method: method as 'POST', url: probe.url, headers, payload });
  }
  return t.app.inject({ method: method as 'POST', url: probe.url, headers, ...(probe.body === undefined ? {} : { payload: probe.body as object }) });
}
