import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';

/**
 * The policy of the web app (and of every API answer, which a browser may be
 * tricked into rendering). Scripts come only from our own bundle (and the shell's own
 * inline boot script, by its hash: `shellContentSecurityPolicy`). Styles also
 * allow 'unsafe-inline': MUI (emotion) injects <style> elements at run time and
 * sets `style` attributes, which a nonce cannot cover; an injected style cannot
 * run code, so the residual risk is CSS-only (layout tampering, attribute-selector
 * leaks), accepted here. The realtime socket is same-origin: 'self' covers ws/wss
 * of the page's own host in current browsers.
 *
 * Two third-party origins, each for one feature and nothing else: the help page
 * (spec part 2 §2.16) shows YouTube thumbnails (img-src https://i.ytimg.com) and
 * plays a video in an iframe of YouTube's no-cookie embed host (frame-src
 * https://www.youtube-nocookie.com). No script, style or connection of theirs
 * runs in our document; the player runs in its own origin.
 */
function appPolicy(scriptSources: readonly string[]): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob: https://i.ytimg.com",
    "media-src 'self' blob:",
    "font-src 'self' data:",
    "frame-src https://www.youtube-nocookie.com",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

const APP_CSP = appPolicy([]);

/**
 * The policy of the app shell, which runs its own inline scripts (the web app's boot script):
 * each admitted by the hash of its text (`'sha256-…'`), nothing else inline.
 */
export function shellContentSecurityPolicy(inlineScripts: readonly string[]): string {
  return appPolicy(inlineScripts.map((script) => `'sha256-${createHash('sha256').update(script).digest('base64')}'`));
}

/**
 * Uploaded media opened directly in a tab: nothing runs, nothing loads but the
 * file itself, and `sandbox` gives the document an opaque origin, so even a file
 * a browser would render as a page cannot reach the app's storage or cookies.
 */
const MEDIA_CSP = ["default-src 'none'", "img-src 'self'", "media-src 'self'", "style-src 'unsafe-inline'", "frame-ancestors 'none'", 'sandbox'].join('; ');

const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-frame-options': 'DENY',
  'cross-origin-opener-policy': 'same-origin',
};

/**
 * Security headers on every answer of the app (HTML shell, static assets, API,
 * media, errors and 404s). Registered on the root instance before any route or
 * plugin, so every encapsulated scope inherits the hook.
 */
export function registerSecurityHeaders(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply) => {
    const isMedia = request.url.startsWith('/media/');
    reply.header('content-security-policy', isMedia ? MEDIA_CSP : APP_CSP);
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) reply.header(name, value);
  });
}
