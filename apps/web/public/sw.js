/* global self */
/*
 * Atende's service worker (issue 35, Web Push). Served from / so its scope is the whole
 * app; it only shows push notifications and opens what a click names. It has no fetch
 * handler: pages load from the network as without it.
 */

self.addEventListener('install', () => {
  // A new version takes over at once: it keeps no caches that could disagree.
  self.skipWaiting();
});

self.addEventListener('activate', (event) => {
  event.waitUntil(self.clients.claim());
});

/** Only a path of this app is ever opened (never another origin). */
function appPath(url) {
  return typeof url === 'string' && url.startsWith('/') && !url.startsWith('//') ? url : '/tickets';
}

/** What the server sent (packages/shared PushPayload), or a neutral notice when it cannot be read. */
function readPayload(event) {
  try {
    const data = event.data ? event.data.json() : null;
    if (data && typeof data.title === 'string') return data;
  } catch {
    // Not JSON: shown as a neutral notice below.
  }
  return { kind: 'unknown', title: 'Atende', body: '', url: '/tickets', tag: 'atende' };
}

self.addEventListener('push', (event) => {
  const payload = readPayload(event);
  event.waitUntil(
    self.registration.showNotification(payload.title, {
      body: payload.body || '',
      tag: payload.tag || undefined,
      renotify: Boolean(payload.tag),
      icon: '/icons/icon-192.png',
      badge: '/icons/icon-192.png',
      data: { url: appPath(payload.url), kind: payload.kind },
    }),
  );
});

/**
 * Shows `url` in the app: an open window of the app is told to go there (the app navigates
 * without a reload) and brought to the front; without one, a new window opens on it.
 */
async function openFromNotification(url) {
  const path = appPath(url);
  const windows = await self.clients.matchAll({ type: 'window', includeUncontrolled: true });
  const open = windows.find((client) => new URL(client.url).origin === self.location.origin);
  if (!open) return self.clients.openWindow(path);
  open.postMessage({ type: 'atende:open', url: path });
  try {
    await open.focus();
  } catch {
    // Focus is allowed only while handling the click itself.
  }
  return open;
}

self.addEventListener('notificationclick', (event) => {
  event.notification.close();
  const url = event.notification.data && event.notification.data.url;
  event.waitUntil(openFromNotification(url));
});
