import type { Language, PushSettings } from '@atende/shared';
import { ApiError, type HttpClient } from '../../api/http-client';

/**
 * This browser's side of Web Push (issue 35): the service worker at /sw.js, the push
 * subscription made with the server's VAPID key, and its registration on the server.
 * Loaded only with the notification settings (and at sign-out when a worker exists).
 */

/** Subscribing waits for the browser's push service; past this it has failed (offline, blocked). */
const SUBSCRIBE_TIMEOUT_MS = 20_000;

export class PushUnavailableError extends Error {
  constructor(readonly reason: 'unsupported' | 'denied' | 'service') {
    super(`push ${reason}`);
  }
}

export function pushSupported(): boolean {
  return typeof window !== 'undefined' && 'serviceWorker' in navigator && 'PushManager' in window && 'Notification' in window;
}

function keyBytes(base64url: string): Uint8Array<ArrayBuffer> {
  const text = atob(base64url.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(base64url.length / 4) * 4, '='));
  const bytes = new Uint8Array(new ArrayBuffer(text.length));
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function sameKey(a: ArrayBuffer | null | undefined, b: Uint8Array): boolean {
  if (!a || a.byteLength !== b.length) return false;
  const view = new Uint8Array(a);
  return view.every((byte, i) => byte === b[i]);
}

/** The service worker's registration, registering it when this browser has none. */
async function serviceWorker(): Promise<ServiceWorkerRegistration> {
  const existing = await navigator.serviceWorker.getRegistration('/');
  if (!existing) await navigator.serviceWorker.register('/sw.js', { scope: '/' });
  return navigator.serviceWorker.ready;
}

/** This browser's push subscription, if it has one. */
export async function currentSubscription(): Promise<PushSubscription | null> {
  if (!pushSupported()) return null;
  const registration = await navigator.serviceWorker.getRegistration('/');
  return registration ? registration.pushManager.getSubscription() : null;
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new PushUnavailableError('service')), ms);
    promise.then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error instanceof Error && error.name === 'NotAllowedError' ? new PushUnavailableError('denied') : new PushUnavailableError('service'));
      },
    );
  });
}

async function newSubscription(registration: ServiceWorkerRegistration, key: Uint8Array<ArrayBuffer>): Promise<PushSubscription> {
  const existing = await registration.pushManager.getSubscription();
  // A subscription made with another key (the server's key changed) cannot be used.
  if (existing && sameKey(existing.options.applicationServerKey, key)) return existing;
  if (existing) await existing.unsubscribe();
  return withTimeout(registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: key }), SUBSCRIBE_TIMEOUT_MS);
}

function subscriptionBody(subscription: PushSubscription, language: Language) {
  const json = subscription.toJSON();
  return { endpoint: json.endpoint, keys: json.keys, language };
}

/**
 * Asks the permission (call it from the user's click), subscribes this browser and tells the
 * server. An endpoint another user of this browser left subscribed is replaced by a new one.
 */
export async function subscribeThisBrowser(api: HttpClient, language: Language): Promise<PushSettings> {
  if (!pushSupported()) throw new PushUnavailableError('unsupported');
  const permission = await Notification.requestPermission();
  if (permission !== 'granted') throw new PushUnavailableError('denied');
  const registration = await serviceWorker();
  const { publicKey } = await api.get<{ publicKey: string }>('/push/vapid-public-key');
  const key = keyBytes(publicKey);
  const subscription = await newSubscription(registration, key);
  try {
    return await api.post<PushSettings>('/push/subscriptions', subscriptionBody(subscription, language));
  } catch (error) {
    if (!(error instanceof ApiError) || error.code !== 'ERR_PUSH_ENDPOINT_TAKEN') throw error;
    await subscription.unsubscribe();
    const fresh = await newSubscription(registration, key);
    return api.post<PushSettings>('/push/subscriptions', subscriptionBody(fresh, language));
  }
}

/** Stops pushes to this browser: the server forgets it, then the browser ends the subscription. */
export async function unsubscribeThisBrowser(api: HttpClient): Promise<PushSettings | null> {
  const subscription = await currentSubscription();
  if (!subscription) return null;
  let settings: PushSettings | null = null;
  try {
    settings = await api.request<PushSettings>('DELETE', '/push/subscriptions', { body: { endpoint: subscription.endpoint } });
  } catch (error) {
    // Already forgotten (another user's sign-in took it, or the push service ended it): the browser's side still ends.
    if (!(error instanceof ApiError) || error.status !== 404) throw error;
  }
  await subscription.unsubscribe();
  return settings;
}
