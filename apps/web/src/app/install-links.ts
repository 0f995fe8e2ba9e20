import { useEffect } from 'react';
import { whenIdle } from '../components/when-idle';

/** The links that make the app installable (its manifest) and give a home-screen icon on iOS. */
const INSTALL_LINKS = [
  { rel: 'manifest', href: '/manifest.webmanifest' },
  { rel: 'apple-touch-icon', href: '/icons/icon-192.png' },
] as const;

/** Linked when the browser is next idle after the first screen, and within this delay at the latest. */
const LINK_WITHIN_MS = 3000;

/** Adds the install links the page does not have yet. */
export function addInstallLinks(head: HTMLHeadElement = document.head): void {
  for (const { rel, href } of INSTALL_LINKS) {
    if (head.querySelector(`link[rel="${rel}"]`)) continue;
    const link = document.createElement('link');
    link.rel = rel;
    link.href = href;
    head.append(link);
  }
}

/**
 * Links the manifest and the touch icon once the first screen is up. In the page as built they
 * were two requests (three with the manifest's icon) that the browser makes before the first
 * screen, each waiting for a connection on a phone's network; nothing needs them that early
 * (installing the app, adding it to a home screen). Used once, by the app's root.
 */
export function useInstallLinks(): void {
  useEffect(() => whenIdle(() => addInstallLinks(), LINK_WITHIN_MS), []);
}
