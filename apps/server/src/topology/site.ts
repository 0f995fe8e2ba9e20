import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const DEPLOY = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../deploy');

/** The variables of `deploy/atende.env.example`: `KEY=value` lines, set or commented out (`# KEY=default`). */
export function exampleEnvironment(): { name: string; value: string; set: boolean }[] {
  return readFileSync(path.join(DEPLOY, 'atende.env.example'), 'utf8')
    .split('\n')
    .flatMap((line) => {
      const match = /^(# )?([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
      return match ? [{ name: match[2] ?? '', value: match[3] ?? '', set: !match[1] }] : [];
    });
}

/**
 * The operator's nginx site (`deploy/nginx/atende.conf`) as the test runs it: the same
 * file with its listen ports, its two nodes' addresses and its certificate paths
 * replaced, IPv6 listens dropped. A literal the file no longer has fails the test, so
 * the documented file stays the tested one.
 */

export interface SitePorts {
  https: number;
  http: number;
  /** The two api nodes, in the file's order (8081, 8082). */
  nodes: [number, number];
  certificate: string;
  key: string;
}

export function testSite(ports: SitePorts): string {
  let site = readFileSync(path.join(DEPLOY, 'nginx/atende.conf'), 'utf8');
  const replace = (literal: string, by: string) => {
    if (!site.includes(literal)) throw new Error(`deploy/nginx/atende.conf has no "${literal}" any more: update apps/server/src/topology/site.ts`);
    site = site.replaceAll(literal, by);
  };
  replace('    listen [::]:443 ssl http2;\n', '');
  replace('    listen [::]:80;\n', '');
  replace('listen 443 ssl http2;', `listen 127.0.0.1:${ports.https} ssl http2;`);
  replace('listen 80;', `listen 127.0.0.1:${ports.http};`);
  replace('server 127.0.0.1:8081 ', `server 127.0.0.1:${ports.nodes[0]} `);
  replace('server 127.0.0.1:8082 ', `server 127.0.0.1:${ports.nodes[1]} `);
  replace('/etc/letsencrypt/live/atende.example.com/fullchain.pem', ports.certificate);
  replace('/etc/letsencrypt/live/atende.example.com/privkey.pem', ports.key);
  return site;
}
