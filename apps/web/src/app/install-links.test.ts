import { afterEach, describe, expect, it } from 'vitest';
import { addInstallLinks } from './install-links';

afterEach(() => {
  for (const link of document.head.querySelectorAll('link')) link.remove();
});

describe('install links', () => {
  it('links the manifest and the touch icon, once', () => {
    addInstallLinks();
    addInstallLinks();
    const links = [...document.head.querySelectorAll('link')].map((link) => [link.rel, link.getAttribute('href')]);
    expect(links).toEqual([
      ['manifest', '/manifest.webmanifest'],
      ['apple-touch-icon', '/icons/icon-192.png'],
    ]);
  });
});
