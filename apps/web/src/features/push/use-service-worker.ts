import { useEffect } from 'react';
import { useNavigate } from 'react-router';

/**
 * The signed-in app's side of the service worker (public/sw.js): registers it, which also
 * makes the app installable, and follows a click on a push notification. The worker tells
 * an open window where to go (`atende:open`) and the app navigates there without a reload.
 */
export function useServiceWorker(): void {
  const navigate = useNavigate();
  useEffect(() => {
    if (!('serviceWorker' in navigator)) return;
    const container = navigator.serviceWorker;
    const onMessage = (event: MessageEvent) => {
      const data = event.data as { type?: unknown; url?: unknown } | null;
      if (data?.type !== 'atende:open' || typeof data.url !== 'string') return;
      // Only a path of this app.
      if (!data.url.startsWith('/') || data.url.startsWith('//')) return;
      void navigate(data.url);
    };
    container.addEventListener('message', onMessage);
    container.startMessages();
    container.register('/sw.js', { scope: '/' }).catch(() => {
      // Without a worker the app works the same; only push notifications are off.
    });
    return () => container.removeEventListener('message', onMessage);
  }, [navigate]);
}
