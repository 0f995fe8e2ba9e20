import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BOOT_SCRIPT_FILE, inlineShell } from './inline-shell';

const transform = (html: string) => {
  const hook = inlineShell().transformIndexHtml;
  if (typeof hook !== 'function') throw new Error('no transformIndexHtml');
  return (hook as (html: string) => string)(html);
};

describe('the inline shell', () => {
  it("puts boot.js's code into the page in place of its tag, without its comments", () => {
    const page = transform(readFileSync(path.resolve(import.meta.dirname, 'index.html'), 'utf8'));
    expect(page).not.toContain('src="/boot.js"');
    const inline = /<script>\n([\s\S]*?)\n<\/script>/.exec(page)?.[1] ?? '';
    expect(inline).toContain("localStorage.getItem('token')");
    expect(inline).toContain('__zod_globalConfig');
    expect(inline).not.toMatch(/^\s*\/\//m);
    // Only the comments went: every line of code is there, in order.
    const code = readFileSync(BOOT_SCRIPT_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.trim() && !line.trim().startsWith('//'));
    expect(inline.split('\n')).toEqual(code);
  });

  it('carries the icon as a data URL, which the browser reads without a request', () => {
    const page = transform(readFileSync(path.resolve(import.meta.dirname, 'index.html'), 'utf8'));
    const href = /<link rel="icon" type="image\/svg\+xml" href="([^"]+)"/.exec(page)?.[1] ?? '';
    expect(href.startsWith('data:image/svg+xml,')).toBe(true);
    expect(decodeURIComponent(href.slice('data:image/svg+xml,'.length))).toBe(readFileSync(path.resolve(import.meta.dirname, 'public/favicon.svg'), 'utf8').trim());
  });

  it('fails the build when index.html no longer names boot.js or the icon', () => {
    expect(() => transform('<html><head><link rel="icon" href="/favicon.svg"></head></html>')).toThrow(/no <script src="\/boot.js">/);
    expect(() => transform('<html><head><script src="/boot.js"></script></head></html>')).toThrow(/no href="\/favicon.svg"/);
  });
});
