import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

// `ATENDE_API=http://127.0.0.1:9001 npm run dev -w @atende/web -- --port 5174` points the dev server at another API.
const api = process.env.ATENDE_API ?? 'http://127.0.0.1:8080';
// Every path the API serves; the dev server forwards them (screen routes ask for HTML and stay here).
const proxied = ['/auth', '/users', '/settings', '/companies', '/plans', '/queue', '/whatsapp', '/tickets', '/messages', '/contacts', '/tags', '/ticket-notes', '/quick-messages', '/sandbox', '/media', '/version', '/health', '/api', '/queue-options', '/prompt', '/queueIntegration', '/whatsappsession', '/cloud-api'];

export default defineConfig({
  plugins: [react()],
  // Several dev servers on one checkout need their own dependency caches (`VITE_CACHE_DIR=/tmp/x`).
  cacheDir: process.env.VITE_CACHE_DIR ?? 'node_modules/.vite',
  server: {
    proxy: {
      ...Object.fromEntries(
        proxied.map((prefix) => [
          prefix,
          { target: api, bypass: (req: { headers: { accept?: string } }) => (req.headers.accept?.includes('text/html') ? '/index.html' : undefined) },
        ]),
      ),
      '/socket.io': { target: api, ws: true },
    },
  },
  build: { outDir: 'dist', sourcemap: false, chunkSizeWarningLimit: 600 },
  test: {
    name: 'web',
    environment: 'jsdom',
    include: ['src/**/*.test.{ts,tsx}'],
    setupFiles: ['./src/test/setup.ts'],
    // After the server's files (see the root vitest.config.ts), with the default worker count
    // (one on two CPUs): a test that pushes a socket event right after the stand-in server saw
    // the connection can beat the page's listeners when two files share the machine.
    sequence: { groupOrder: 1 },
  },
});
