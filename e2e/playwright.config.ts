import { defineConfig } from '@playwright/test';
import { BROWSER_TIME_ZONE } from './time-zone';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  outputDir: './artifacts/results',
  timeout: 30_000,
  // A lazy page's chunk and first answers have taken over 5 s (the default) on a loaded CI host.
  expect: { timeout: 10_000 },
  retries: 0,
  workers: 1,
  reporter: [['list']],
  use: {
    baseURL: process.env.E2E_BASE_URL ?? 'http://127.0.0.1:8080',
    screenshot: 'only-on-failure',
    trace: 'off',
    // The browsers of the seeded companies' people: their zone is the companies' (America/Sao_Paulo),
    // so a date the page formats in the browser's zone reads the same whatever the machine's clock zone.
    timezoneId: BROWSER_TIME_ZONE,
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-dev-shm-usage',
      ],
    },
  },
});
