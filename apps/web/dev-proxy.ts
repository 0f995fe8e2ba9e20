import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { ProxyOptions } from 'vite';

/**
 * What `npm run dev -w @atende/web` sends to the API. The rule is the production
 * server's (`apps/server/src/platform/http/web-app.ts`) read the other way round:
 * API routes and screen routes share paths (GET /tickets is both), so a page
 * navigation (a GET or HEAD asking for HTML, of a path without a file extension)
 * gets the app and every other request reaches the API. Vite's own paths and the
 * files of `public/` stay with Vite; `/socket.io` goes to the API as a WebSocket.
 * No list of API prefixes to keep up to date: a new route works in dev mode at once.
 */

export interface DevRequest {
  method?: string;
  url?: string;
  headers: { accept?: string | string[] };
}

/** Paths the Vite dev server answers itself: its client, modules, pre-bundled dependencies and HTML. */
const VITE_PREFIXES = ['/@', '/src/', '/node_modules/', '/__vite', '/index.html'];

/** The files of `public/`, as the paths they are served at (`/favicon.svg`). */
export function publicPaths(publicDir: string): Set<string> {
  const found = new Set<string>();
  const walk = (dir: string, prefix: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      if (entry.isDirectory()) walk(path.join(dir, entry.name), `${prefix}${entry.name}/`);
      else found.add(`${prefix}${entry.name}`);
    }
  };
  walk(publicDir, '/');
  return found;
}

/** Whether the dev server forwards this request to the API (else Vite answers it). */
export function goesToApi(request: DevRequest, publicFiles: ReadonlySet<string>): boolean {
  const url = request.url ?? '/';
  const pathname = url.split('?')[0] ?? '/';
  // The API has nothing at `/`: the root is the app for every client, as in production.
  if (pathname === '/') return false;
  if (pathname.startsWith('/socket.io')) return true;
  if (VITE_PREFIXES.some((prefix) => pathname.startsWith(prefix))) return false;
  if (publicFiles.has(decodeURI(pathname))) return false;
  const method = (request.method ?? 'GET').toUpperCase();
  const accept = [request.headers.accept ?? ''].flat().join(',');
  const navigation = (method === 'GET' || method === 'HEAD') && accept.includes('text/html') && path.posix.extname(pathname) === '';
  return !navigation;
}

/** `server.proxy` of the dev server: Socket.IO (with its WebSocket) first, then every request `goesToApi` picks. */
export function apiProxy(target: string, publicDir: string): Record<string, ProxyOptions> {
  const publicFiles = publicPaths(publicDir);
  return {
    '/socket.io': { target, ws: true },
    // Any path; `bypass` hands what is not the API back to Vite (the same URL, unproxied).
    '^/': { target, bypass: (request) => (goesToApi(request, publicFiles) ? undefined : (request.url ?? '/')) },
  };
}
