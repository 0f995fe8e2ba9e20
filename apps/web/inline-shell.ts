import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Plugin } from 'vite';

/** The classic script the shell runs before the app's modules (its own comments say what it does). */
export const BOOT_SCRIPT_FILE = path.resolve(import.meta.dirname, 'boot.js');
const FAVICON_FILE = path.resolve(import.meta.dirname, 'public/favicon.svg');
const BOOT_TAG = '<script src="/boot.js"></script>';
const FAVICON_HREF = 'href="/favicon.svg"';

/**
 * Puts into the page itself what it asked for before its first screen. On a phone's network each
 * request before the first paint waits its round trip for a connection: `boot.js` was one, and the
 * stored session's `GET /auth/me` it sends could only leave once that file had arrived and run;
 * the icon was another. The boot script goes inline (the Content Security Policy admits it by its
 * hash: the server hashes the built shell's inline scripts, apps/server `platform/http/web-app.ts`),
 * the icon as a data URL. The manifest and the touch icon are linked once the first screen has
 * painted (`src/app/install-links.ts`).
 */
export function inlineShell(): Plugin {
  return {
    name: 'atende:inline-shell',
    transformIndexHtml(html) {
      for (const needed of [BOOT_TAG, FAVICON_HREF]) if (!html.includes(needed)) throw new Error(`inline-shell: index.html has no ${needed}`);
      // Its comments stay in the source: the page carries the code alone.
      const code = readFileSync(BOOT_SCRIPT_FILE, 'utf8')
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.trim().startsWith('//'))
        .join('\n');
      const icon = `data:image/svg+xml,${encodeURIComponent(readFileSync(FAVICON_FILE, 'utf8').trim())}`;
      return html.replace(BOOT_TAG, `<script>\n${code}\n</script>`).replace(FAVICON_HREF, `href="${icon}"`);
    },
  };
}
