import { useEffect } from 'react';
import { useNavigate } from 'react-router';
import { whenIdle } from '../../components/when-idle';

/** The worker is registered when the browser is next idle, and within this delay at the latest. */
const REGISTER_WITHIN_MS = 3000;

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
    // Registered once the first screen has settled: on a slow phone it is not one more piece of work of its first seconds.
    const register = () =>
      void container.register('/sw.js', { scope: '/' }).catch(() => {
        // Without a worker the app works the same; only push notifications are off.
      });
    const cancelRegister = whenIdle(register, REGISTER_WITHIN_MS);
    return () => {
      container.removeEventListener('message', onMessage);
      cancelRegister();
    };
  }, [navigate]);
}
