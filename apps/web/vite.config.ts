import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';
import { apiProxy } from './dev-proxy.js';
import { firstScreenChunks, firstScreenFiles } from './first-screen.js';
import { i18nSplit } from './i18n-split.js';
import { inlineShell } from './inline-shell.js';

// `ATENDE_API=http://127.0.0.1:9001 npm run dev -w @atende/web -- --port 5174` points the dev server at another API.
const api = process.env.ATENDE_API ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react(), i18nSplit(), inlineShell(), firstScreenFiles(), firstScreenChunks()],
  // Several dev servers on one checkout need their own dependency caches (`VITE_CACHE_DIR=/tmp/x`).
  cacheDir: process.env.VITE_CACHE_DIR ?? 'node_modules/.vite',
  server: {
    // Every request but page navigations, Vite's own paths and public/ goes to the API (dev-proxy.ts).
    proxy: apiProxy(api, path.join(import.meta.dirname, 'public')),
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}', 'dev-proxy.test.ts', 'i18n-split.test.ts', 'first-screen.test.ts', 'inline-shell.test.ts'],
    setupFiles: ['./src/test/setup.ts'],
    // After the server's files (see the root vitest.config.ts), with the default worker count
    // (one on two CPUs): a test that pushes a socket event right after the stand-in server saw
    // the connection can beat the page's listeners when two files share the machine.
    sequence: { groupOrder: 1 },
    // The files share one process and one document (jsdom made once, modules imported once:
    // about 9 -> 3 min here); src/test/setup.ts puts back after each file what a page sets
    // for the whole app (language, time zone, title, timers, spies).
    isolate: false,
  },
});
