import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/**
 * Serves the built web app on the API's port. API routes and screen routes share
 * paths (GET /tickets is both), so a browser navigation, which asks for HTML, gets
 * the app shell, and an API call, which asks for JSON, reaches the route; `/`,
 * where the API has nothing, is the app shell for every client. Every
 * answer says it varies by `Accept`: otherwise the browser would answer the app's
 * `fetch('/settings')` with the page it cached for the navigation to /settings.
 */
export async function registerWebApp(app: FastifyInstance, distDir: string): Promise<boolean> {
  const indexFile = path.join(distDir, 'index.html');
  if (!existsSync(indexFile)) return false;
  await app.register(fastifyStatic, {
    root: distDir,
    wildcard: false,
    index: false,
    // The build's .br and .gz copies (apps/web/scripts/precompress.mjs) go to browsers that accept them.
    preCompressed: true,
    maxAge: '1h',
    immutable: false,
  });
  // The shell's answers: revalidated on every load. Set again when sent, because @fastify/static drops
  // `sendFile`'s options when it falls back from a missing .br/.gz copy (a shell under the build's 1 kB
  // compression threshold) to the plain file, and would send the shell with its assets' one-hour max-age.
  const shells = new WeakSet<FastifyRequest>();
  app.addHook('onRequest', async (request, reply) => {
    if (request.method !== 'GET' && request.method !== 'HEAD') return;
    const url = request.url.split('?')[0] ?? '/';
    // The API has no route at `/`: the root is the app whatever the client asks for (curl, a health probe, a link preview).
    const accept = request.headers.accept ?? '';
    if (url !== '/' && !accept.includes('text/html')) return;
    if (url.startsWith('/socket.io') || path.extname(url) !== '') return;
    // The API reference page is the server's own (platform/http/openapi.routes.ts), not a screen of the app.
    if (url === '/api-docs' || url.startsWith('/api-docs/')) return;
    shells.add(request);
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
  app.addHook('onSend', async (request, reply) => {
    addVary(reply, 'Accept');
    if (shells.has(request)) reply.header('cache-control', 'no-cache');
    // Vite names what it builds into /assets/ by content hash: a changed file is a new name, so a year is safe.
    if (request.url.startsWith('/assets/') && reply.statusCode === 200 && reply.getHeader('cache-control') === 'public, max-age=3600') {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    // A built file may go out as its .br or .gz copy: caches must key it by the encodings the browser takes.
    if (path.extname(request.url.split('?')[0] ?? '') !== '') addVary(reply, 'Accept-Encoding');
  });
  return true;
}

function addVary(reply: FastifyReply, name: string): void {
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', name);
  else if (!String(vary).split(',').some((token) => token.trim().toLowerCase() === name.toLowerCase())) reply.header('vary', `${String(vary)}, ${name}`);
}
