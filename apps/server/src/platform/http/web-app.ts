import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { firstScreenParts, LANGUAGES, PRELOAD_HINT_COOKIE, readPreloadHint, type FirstScreenFiles, type Language } from '@atende/shared';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { shellContentSecurityPolicy } from './security-headers.js';

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
  const html = readFileSync(indexFile, 'utf8');
  const shell = firstScreenShell(distDir, html);
  const shellPolicy = shellContentSecurityPolicy(inlineScripts(html));
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
    if (shell) return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(shell(url, request));
    return reply.header('cache-control', 'no-cache').sendFile('index.html', { cacheControl: false });
  });
  app.addHook('onSend', async (request, reply) => {
    addVary(reply, 'Accept');
    // The shell names the files of this browser's first screen (its hint cookie, else its languages).
    if (shell && shells.has(request)) {
      addVary(reply, 'Cookie');
      addVary(reply, 'Accept-Language');
    }
    if (shells.has(request)) reply.header('cache-control', 'no-cache');
    // The shell's inline boot script runs by its hash (apps/web inline-shell.ts), also when the built file is asked for by name.
    if (shells.has(request) || request.url.split('?')[0] === '/index.html') reply.header('content-security-policy', shellPolicy);
    // The service worker and the manifest keep their names across builds: revalidated on every
    // check, so a new build's worker takes over at the next visit (issue 35, push notifications).
    const file = request.url.split('?')[0];
    if ((file === '/sw.js' || file === '/manifest.webmanifest') && reply.statusCode === 200) reply.header('cache-control', 'no-cache');
    // Vite names what it builds into /assets/ by content hash: a changed file is a new name, so a year is safe.
    if (request.url.startsWith('/assets/') && reply.statusCode === 200 && reply.getHeader('cache-control') === 'public, max-age=3600') {
      reply.header('cache-control', 'public, max-age=31536000, immutable');
    }
    // A built file may go out as its .br or .gz copy: caches must key it by the encodings the browser takes.
    if (path.extname(request.url.split('?')[0] ?? '') !== '') addVary(reply, 'Accept-Encoding');
  });
  return true;
}

/**
 * The app shell with `<link rel="modulepreload">` for the files the first screen of this path
 * needs (the build's first-screen.json; packages/shared `firstScreenParts`), so the browser asks
 * for them beside the entry instead of once the entry has run and asked: on a slow phone network
 * that is a round trip and the entry's run time sooner. Whether a session is stored and the
 * language (localStorage, out of the server's sight) come from the web app's hint cookie; without
 * one, no session and the first of the browser's languages, as the web app itself decides. Null
 * when the build has no first-screen.json: the shell goes out as built.
 */
function firstScreenShell(distDir: string, html: string): ((url: string, request: FastifyRequest) => string) | null {
  const listFile = path.join(distDir, 'first-screen.json');
  if (!existsSync(listFile)) return null;
  const files = JSON.parse(readFileSync(listFile, 'utf8')) as FirstScreenFiles;
  const built = new Map<string, string>();
  return (url, request) => {
    const hint = readPreloadHint(request.cookies[PRELOAD_HINT_COOKIE]);
    const language = hint.language ?? browserLanguage(request.headers['accept-language']);
    const parts = firstScreenParts(url, hint.signedIn);
    const key = `${language} ${parts.join(',')}`;
    let page = built.get(key);
    if (!page) {
      const wanted = new Set([...(files.languages[language] ?? []), ...parts.flatMap((part) => files.parts[part] ?? [])]);
      const links = [...wanted].map((file) => `    <link rel="modulepreload" crossorigin href="${file}">\n`).join('');
      page = html.replace('</head>', `${links}  </head>`);
      built.set(key, page);
    }
    return page;
  };
}

/** The text of each inline `<script>` of the shell (one without `src`), as the browser hashes it. */
function inlineScripts(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/g)].map((match) => match[1] ?? '');
}

/** The first of the browser's languages if Atende speaks it, else Portuguese (the web app's `initialLanguage`). */
function browserLanguage(header: string | undefined): Language {
  const first = header?.split(',')[0]?.trim().slice(0, 2).toLowerCase();
  return LANGUAGES.find((language) => language === first) ?? 'pt';
}

function addVary(reply: FastifyReply, name: string): void {
  const vary = reply.getHeader('vary');
  if (!vary) reply.header('vary', name);
  else if (!String(vary).split(',').some((token) => token.trim().toLowerCase() === name.toLowerCase())) reply.header('vary', `${String(vary)}, ${name}`);
}
