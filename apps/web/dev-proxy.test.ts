import path from 'node:path';
import { MENU_ITEMS, ROUTE_ROLES } from '@atende/shared';
import { describe, expect, it } from 'vitest';
import { goesToApi, publicPaths } from './dev-proxy';

const publicFiles = publicPaths(path.join(import.meta.dirname, 'public'));
const JSON_ACCEPT = 'application/json, text/plain, */*';
const PAGE_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';

/** A concrete URL of a route of `ROUTE_ROLES` (`/tickets/:id` → `/tickets/1`, `/media/*` → `/media/3/a.jpg`). */
function concrete(routePath: string): string {
  return routePath.replace(/:[A-Za-z]+\??/g, '1').replace(/\*$/, '3/a.jpg');
}

describe('the dev server proxy', () => {
  it('sends every route of the API table to the API, whatever its method', () => {
    const routes = Object.keys(ROUTE_ROLES).map((key) => key.split(' ') as [string, string]);
    expect(routes.length).toBeGreaterThan(100);
    const kept = routes.filter(([method, routePath]) => !goesToApi({ method, url: `${concrete(routePath)}?pageNumber=1`, headers: { accept: JSON_ACCEPT } }, publicFiles));
    expect(kept).toEqual([]);
  });

  it('sends the pages that schedules, campaigns, chats and the dashboard load to the API (missing from the old list)', () => {
    for (const url of ['/schedules', '/campaigns', '/campaign-settings', '/chats', '/chats/unread', '/dashboard', '/announcements', '/files', '/contact-lists', '/invoices/all', '/helps/list', '/subscription']) {
      expect(goesToApi({ method: 'GET', url, headers: { accept: JSON_ACCEPT } }, publicFiles), url).toBe(true);
    }
  });

  it('keeps page navigations with Vite, so the app answers its screen routes (GET /tickets is both)', () => {
    for (const { route } of MENU_ITEMS) {
      expect(goesToApi({ method: 'GET', url: route, headers: { accept: PAGE_ACCEPT } }, publicFiles), route).toBe(false);
    }
    expect(goesToApi({ method: 'GET', url: '/tickets/0d9f0c7e-2a51-4c1f-9d1e-5f7e1b2c3d4e', headers: { accept: PAGE_ACCEPT } }, publicFiles)).toBe(false);
    expect(goesToApi({ method: 'HEAD', url: '/login', headers: { accept: 'text/html' } }, publicFiles)).toBe(false);
  });

  it('sends the API what only looks like a page: a form post, a file opened in a tab, and the root never', () => {
    expect(goesToApi({ method: 'POST', url: '/auth/login', headers: { accept: PAGE_ACCEPT } }, publicFiles)).toBe(true);
    expect(goesToApi({ method: 'GET', url: '/media/3/contract.pdf?expires=1&signature=x', headers: { accept: PAGE_ACCEPT } }, publicFiles)).toBe(true);
    expect(goesToApi({ method: 'GET', url: '/', headers: { accept: JSON_ACCEPT } }, publicFiles)).toBe(false);
    expect(goesToApi({ method: 'GET', url: '/health', headers: {} }, publicFiles)).toBe(true);
  });

  it("keeps Vite's own paths and the public files with Vite", () => {
    for (const url of ['/@vite/client', '/@react-refresh', '/@fs/work/packages/shared/src/index.ts', '/@id/__x00__react', '/src/main.tsx', '/src/app/routes.tsx?t=1', '/node_modules/.vite/deps/react.js?v=1', '/index.html']) {
      expect(goesToApi({ method: 'GET', url, headers: { accept: '*/*' } }, publicFiles), url).toBe(false);
    }
    expect([...publicFiles]).toContain('/favicon.svg');
    for (const file of publicFiles) expect(goesToApi({ method: 'GET', url: file, headers: { accept: '*/*' } }, publicFiles), file).toBe(false);
  });

  it('sends Socket.IO to the API (its polling requests and the WebSocket upgrade)', () => {
    expect(goesToApi({ method: 'GET', url: '/socket.io/?EIO=4&transport=polling', headers: { accept: '*/*' } }, publicFiles)).toBe(true);
    expect(goesToApi({ method: 'GET', url: '/socket.io/?EIO=4&transport=websocket', headers: { accept: 'text/html' } }, publicFiles)).toBe(true);
  });
});
