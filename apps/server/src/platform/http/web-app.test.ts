import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test/test-app.js';

let t: TestContext;
let token: string;
const APP_JS = `export const app = ${JSON.stringify('x'.repeat(4000))};\n`;
/** The web build's inline boot script (apps/web inline-shell.ts), as the shell carries it. */
const BOOT_SCRIPT = "\nglobalThis.__booted = true;\n";

beforeAll(async () => {
  const dist = mkdtempSync(path.join(tmpdir(), 'atende-web-'));
  writeFileSync(path.join(dist, 'index.html'), `<!doctype html><html><head><title>Atende</title><script>${BOOT_SCRIPT}</script><script type="module" src="/assets/index-Ab12Cd34.js"></script></head><body><div id="root"></div></body></html>`);
  // What the web build lists for each first-screen part and language (apps/web/first-screen.ts).
  const part = (name: string) => [`/assets/${name}.js`];
  writeFileSync(
    path.join(dist, 'first-screen.json'),
    JSON.stringify({
      parts: { login: part('login'), signup: part('signup'), passwordReset: part('reset'), appLayout: [...part('layout'), '/assets/Tooltip.js'], dashboard: part('dashboard'), tickets: part('tickets'), conversation: part('conversation') },
      languages: { pt: [...part('pt'), '/assets/catalogue.js'], en: [...part('en'), '/assets/catalogue.js'], es: [...part('es'), '/assets/catalogue.js'] },
    }),
  );
  // A built asset and the copies the web build's precompress step writes beside it.
  mkdirSync(path.join(dist, 'assets'));
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js'), APP_JS);
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.br'), brotliCompressSync(APP_JS));
  writeFileSync(path.join(dist, 'assets', 'index-Ab12Cd34.js.gz'), gzipSync(APP_JS));
  writeFileSync(path.join(dist, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
  t = await createTestContext({ env: { WEB_DIST_DIR: dist }, serveWeb: true });
  token = (await (await t.factories.buildCompany()).admin.login()).token;
});
afterAll(() => t.close());

describe('one path, two answers', () => {
  it('gives a navigation the app shell and an API call the JSON, both varying by Accept so a browser cache never swaps them', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.headers['cache-control']).toBe('no-cache');
    expect(page.headers.vary).toMatch(/accept/i);
    // A browser accepts brotli; a shell too small to have a .br copy still goes out revalidated.
    const compressing = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'text/html', 'accept-encoding': 'gzip, deflate, br' } });
    expect(compressing.headers['content-type']).toMatch(/^text\/html/);
    expect(compressing.headers['cache-control']).toBe('no-cache');

    const api = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    expect(api.statusCode).toBe(200);
    expect(Array.isArray(api.json())).toBe(true);
    expect(api.headers.vary).toMatch(/accept/i);
  });
});

describe("the first screen's files", () => {
  const preloads = async (url: string, headers: Record<string, string> = {}) => {
    const page = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html', ...headers } });
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    return [...page.body.matchAll(/<link rel="modulepreload" crossorigin href="([^"]+)">/g)].map((match) => match[1]);
  };

  it("are named in the shell, as the web app's hint cookie says (session, language), else by the browser's language", async () => {
    expect(await preloads('/login', { 'accept-language': 'es-ES,es;q=0.9' })).toEqual(['/assets/es.js', '/assets/catalogue.js', '/assets/login.js']);
    expect(await preloads('/login', { 'accept-language': 'fr-FR' })).toEqual(['/assets/pt.js', '/assets/catalogue.js', '/assets/login.js']);
    // A signed-in screen names its frame (top bar, menu) only: the page's own files come after the frame has painted.
    expect(await preloads('/tickets', { cookie: 'atende_preload=en.session' })).toEqual(['/assets/en.js', '/assets/catalogue.js', '/assets/layout.js', '/assets/Tooltip.js']);
    expect(await preloads('/tickets/8c2f7e1a', { cookie: 'atende_preload=pt.session' })).toEqual(['/assets/pt.js', '/assets/catalogue.js', '/assets/layout.js', '/assets/Tooltip.js']);
    // No session stored: a private path shows the login page; a stored one skips it.
    expect(await preloads('/tickets', { cookie: 'atende_preload=pt' })).toEqual(['/assets/pt.js', '/assets/catalogue.js', '/assets/login.js']);
    expect(await preloads('/login', { cookie: 'atende_preload=pt.session' })).toEqual(['/assets/pt.js', '/assets/catalogue.js']);
    // A forged hint names only the build's own files.
    expect(await preloads('/tickets', { cookie: 'atende_preload=%22%3E%3Cscript%3E.session' })).toEqual(['/assets/pt.js', '/assets/catalogue.js', '/assets/layout.js', '/assets/Tooltip.js']);
  });

  it('make the shell vary by cookie and language, still revalidated on every load', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/login', headers: { accept: 'text/html' } });
    expect(page.headers.vary).toMatch(/cookie/i);
    expect(page.headers.vary).toMatch(/accept-language/i);
    expect(page.headers['cache-control']).toBe('no-cache');
  });
});

describe('the root', () => {
  it('is the app shell whatever the Accept header says (the API has no route at /)', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'text/html']) {
      const response = await t.app.inject({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(response.statusCode, String(accept)).toBe(200);
      expect(response.headers['content-type'], String(accept)).toMatch(/^text\/html/);
      expect(response.body, String(accept)).toContain('<div id="root">');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/?from=probe', headers: { accept: '*/*' } });
    expect(head.statusCode).toBe(200);
    // Any other path without text/html is still the API's (404 JSON when it has no route).
    const other = await t.app.inject({ method: 'GET', url: '/no-such-route', headers: { accept: '*/*' } });
    expect(other.statusCode).toBe(404);
    expect(other.json()).toMatchObject({ error: 'ERR_NOT_FOUND' });
  });
});

describe('the API reference', () => {
  it("is the server's own page at /api-docs, not the app shell, and the document lists no built file", async () => {
    const page = await t.app.inject({ method: 'GET', url: '/api-docs', headers: { accept: 'text/html,application/xhtml+xml' } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('Atende API reference');
    expect(page.body).not.toContain('<div id="root">');
    const doc = (await t.app.inject({ method: 'GET', url: '/openapi.json', headers: { accept: 'text/html' } })).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths).filter((route) => route.startsWith('/assets') || route.includes('.svg') || route.includes('index.html'))).toEqual([]);
    expect(Object.keys(doc.paths)).toContain('/tickets');
  });
});

describe('built files', () => {
  const asset = (encoding?: string) => t.app.inject({ method: 'GET', url: '/assets/index-Ab12Cd34.js', headers: encoding ? { 'accept-encoding': encoding } : {} });

  it('go out precompressed to browsers that accept brotli or gzip, as they are to the others, cached for a year when hashed', async () => {
    const br = await asset('gzip, deflate, br');
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(APP_JS);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers.vary).toMatch(/accept-encoding/i);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gz = await asset('gzip');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(APP_JS);

    const plain = await asset();
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(APP_JS);

    // Files without a content hash in their name keep a short cache; the app shell none.
    const icon = await t.app.inject({ method: 'GET', url: '/favicon.svg' });
    expect(icon.headers['cache-control']).toBe('public, max-age=3600');
    expect((await t.app.inject({ method: 'GET', url: '/', headers: { accept: 'text/html' } })).headers['cache-control']).toBe('no-cache');
  });
});

describe('security headers', () => {
  const common = {
    'referrer-policy': 'strict-origin-when-cross-origin',
    'x-content-type-options': 'nosniff',
    'x-frame-options': 'DENY',
  };

  /** The policy as a map of directive to its sources. */
  function directives(header: string | string[] | number | undefined): Record<string, string> {
    expect(typeof header).toBe('string');
    return Object.fromEntries(
      String(header)
        .split(';')
        .map((part) => part.trim().split(/\s+/))
        .map(([name = '', ...sources]) => [name, sources.join(' ')]),
    );
  }

  it('the app shell, a static asset and a missing page run only our own scripts, cannot be framed and frame only the help videos\' player', async () => {
    const bootHash = `'sha256-${createHash('sha256').update(BOOT_SCRIPT).digest('base64')}'`;
    for (const url of ['/', '/tickets', '/index.html', '/nothing-here.js']) {
      const response = await t.app.inject({ method: 'GET', url, headers: { accept: 'text/html' } });
      expect(response.headers, url).toMatchObject(common);
      expect(directives(response.headers['content-security-policy']), url).toMatchObject({
        'default-src': "'self'",
        // The shell also runs its one inline script, by its hash; nothing else inline, anywhere.
        'script-src': url === '/nothing-here.js' ? "'self'" : `'self' ${bootHash}`,
        'style-src': "'self' 'unsafe-inline'",
        'img-src': "'self' data: blob: https://i.ytimg.com",
        'media-src': "'self' blob:",
        // the help page only: YouTube's no-cookie player in an iframe, nothing else framed
        'frame-src': 'https://www.youtube-nocookie.com',
        'connect-src': "'self'",
        'object-src': "'none'",
        'base-uri': "'self'",
        'form-action': "'self'",
        'frame-ancestors': "'none'",
      });
    }
  });

  it('an API answer, an error and a refusal carry the same headers', async () => {
    const ok = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'application/json', authorization: `Bearer ${token}` } });
    const refused = await t.app.inject({ method: 'GET', url: '/settings', headers: { accept: 'application/json' } });
    const invalid = await t.app.inject({ method: 'POST', url: '/auth/login', payload: { email: 1 } });
    expect([ok.statusCode, refused.statusCode, invalid.statusCode]).toEqual([200, 401, 400]);
    for (const response of [ok, refused, invalid]) {
      expect(response.headers).toMatchObject(common);
      expect(directives(response.headers['content-security-policy'])).toMatchObject({ 'script-src': "'self'", 'frame-ancestors': "'none'" });
    }
  });

  it('an uploaded file opened on its own runs nothing and loads nothing else (sandboxed, no default source)', async () => {
    const saved = await t.app.services.media.save({ companyId: 1 }, { data: Buffer.from('GIF89a'), fileName: 'foto.gif', mimeType: 'image/gif' });
    const response = await t.app.inject({ method: 'GET', url: t.app.services.media.signedUrl(saved.path) });
    expect(response.statusCode).toBe(200);
    expect(response.headers).toMatchObject(common);
    const policy = directives(response.headers['content-security-policy']);
    expect(policy).toMatchObject({ 'default-src': "'none'", 'frame-ancestors': "'none'", sandbox: '' });
    expect(policy['script-src']).toBeUndefined();
  });
});
