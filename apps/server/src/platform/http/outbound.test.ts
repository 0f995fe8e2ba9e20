import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkOutboundUrl, createOutboundPolicy, outboundFetch, OutboundRefusedError, refusedRange } from './outbound.js';

interface Peer {
  url: string;
  port: number;
  hits: string[];
  server: Server;
}

/** A peer on a given loopback address; `answer` may redirect. */
async function startPeer(host: string, answer: (path: string) => { status: number; location?: string; body?: string }): Promise<Peer> {
  const hits: string[] = [];
  const server = createServer((req, res) => {
    hits.push(req.url ?? '/');
    const reply = answer(req.url ?? '/');
    res.writeHead(reply.status, reply.location ? { location: reply.location } : { 'content-type': 'text/plain' }).end(reply.body ?? '');
  });
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  const { port } = server.address() as AddressInfo;
  return { url: `http://${host.includes(':') ? `[${host}]` : host}:${port}`, port, hits, server };
}

let target: Peer;
let targetV6: Peer;
let hop: Peer;
const strict = createOutboundPolicy([]);

beforeAll(async () => {
  target = await startPeer('127.0.0.1', () => ({ status: 200, body: 'internal secret' }));
  targetV6 = await startPeer('::1', () => ({ status: 200, body: 'internal secret' }));
  // A peer the operator allowed (127.0.0.2) that redirects wherever the path says.
  hop = await startPeer('127.0.0.2', (path) => {
    if (path === '/to-loopback') return { status: 302, location: `${target.url}/secret` };
    if (path === '/to-localhost') return { status: 307, location: `http://localhost:${target.port}/secret` };
    if (path === '/to-metadata') return { status: 301, location: 'http://169.254.169.254/latest/meta-data/' };
    if (path === '/loop') return { status: 302, location: '/loop' };
    if (path === '/to-ok') return { status: 303, location: '/ok' };
    return { status: 200, body: 'hop answered' };
  });
});
afterAll(async () => {
  for (const peer of [target, targetV6, hop]) await new Promise((resolve) => peer.server.close(resolve));
});

async function refusal(promise: Promise<unknown>): Promise<OutboundRefusedError> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  if (!(error instanceof OutboundRefusedError)) throw new Error(`expected a refusal, got ${String(error)}`);
  return error;
}

describe('address ranges', () => {
  it.each([
    ['127.0.0.1', 'loopback'],
    ['127.255.0.9', 'loopback'],
    ['10.1.2.3', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.254', 'private'],
    ['192.168.1.1', 'private'],
    ['100.64.0.1', 'shared'],
    ['169.254.169.254', 'link-local'],
    ['224.0.0.251', 'multicast'],
    ['0.0.0.0', 'unspecified'],
    ['255.255.255.255', 'reserved'],
    ['::1', 'loopback'],
    ['::', 'unspecified'],
    ['fd00:ec2::254', 'private'],
    ['fc00::1', 'private'],
    ['fe80::1%eth0', 'link-local'],
    ['ff02::1', 'multicast'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['64:ff9b::10.0.0.1', 'private'],
    ['2002:a9fe:a9fe::1', 'link-local'],
  ])('%s is %s', (address, reason) => {
    expect(refusedRange(address)).toBe(reason);
  });

  it.each(['8.8.8.8', '1.1.1.1', '172.32.0.1', '100.128.0.1', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('%s is public', (address) => {
    expect(refusedRange(address)).toBeNull();
  });

  it('the allow-list opens listed addresses, blocks and host names only', () => {
    const policy = createOutboundPolicy(['10.0.0.0/8', '::1', 'n8n.internal']);
    expect(policy.refusal('10.9.9.9', '10.9.9.9')).toBeNull();
    expect(policy.refusal('::ffff:10.9.9.9', '::ffff:10.9.9.9')).toBeNull();
    expect(policy.refusal('x', '::1')).toBeNull();
    expect(policy.refusal('n8n.internal', '192.168.0.4')).toBeNull();
    expect(policy.refusal('other.internal', '192.168.0.4')).toBe('private');
    expect(policy.refusal('x', '127.0.0.1')).toBe('loopback');
    expect(() => createOutboundPolicy(['10.0.0.0/33'])).toThrow(/10.0.0.0\/33/);
  });
});

describe('outboundFetch', () => {
  it('refuses loopback, IPv6 loopback and a name resolving to loopback before anything reaches the peer', async () => {
    expect((await refusal(outboundFetch(strict, `${target.url}/a`, { timeoutMs: 2000 }))).reason).toBe('loopback');
    expect((await refusal(outboundFetch(strict, `${targetV6.url}/a`, { timeoutMs: 2000 }))).reason).toBe('loopback');
    // The name is resolved by the connection's own lookup: the refused address is never connected to.
    const byName = await refusal(outboundFetch(strict, `http://localhost:${target.port}/a`, { method: 'POST', body: '{}', timeoutMs: 2000 }));
    expect(byName.reason).toBe('loopback');
    expect(byName.address).toMatch(/^(127\.0\.0\.1|::1)$/);
    expect(target.hits).toEqual([]);
    expect(targetV6.hits).toEqual([]);
  });

  it('refuses private, metadata, mapped and unspecified literals', async () => {
    for (const url of ['http://10.0.0.1/', 'http://169.254.169.254/latest/meta-data/', 'http://[::ffff:127.0.0.1]/', 'http://0.0.0.0/', 'http://[fd00::1]/', 'http://2130706433/', 'http://0x7f.1/', 'http://[::ffff:169.254.169.254]/']) {
      await refusal(outboundFetch(strict, url, { timeoutMs: 2000 }));
    }
    expect((await refusal(outboundFetch(strict, 'file:///etc/passwd', { timeoutMs: 2000 }))).reason).toBe('scheme');
  });

  it('reaches a loopback peer the operator allowed, and only that one', async () => {
    const allowed = await outboundFetch(createOutboundPolicy(['127.0.0.1']), `${target.url}/allowed`, { timeoutMs: 2000 });
    expect(allowed).toMatchObject({ status: 200, text: 'internal secret' });
    const byHost = await outboundFetch(createOutboundPolicy(['localhost']), `http://localhost:${target.port}/by-host`, { timeoutMs: 2000 });
    expect(byHost.status).toBe(200);
    expect(target.hits).toEqual(['/allowed', '/by-host']);
    await refusal(outboundFetch(createOutboundPolicy(['127.0.0.1']), `${targetV6.url}/v6`, { timeoutMs: 2000 }));
  });

  it('checks every redirect: an allowed peer cannot bounce the call to loopback or metadata', async () => {
    const policy = createOutboundPolicy(['127.0.0.2']);
    const before = target.hits.length;
    expect((await refusal(outboundFetch(policy, `${hop.url}/to-loopback`, { method: 'POST', body: '{}', timeoutMs: 2000 }))).reason).toBe('loopback');
    expect((await refusal(outboundFetch(policy, `${hop.url}/to-localhost`, { method: 'POST', body: '{}', timeoutMs: 2000 }))).reason).toBe('loopback');
    expect((await refusal(outboundFetch(policy, `${hop.url}/to-metadata`, { timeoutMs: 2000 }))).reason).toBe('link-local');
    expect(target.hits.length).toBe(before);
    // Redirects within what is allowed are followed, and bounded.
    const followed = await outboundFetch(policy, `${hop.url}/to-ok`, { method: 'POST', body: '{}', timeoutMs: 2000 });
    expect(followed).toMatchObject({ status: 200, text: 'hop answered', url: `${hop.url}/ok` });
    await expect(outboundFetch(policy, `${hop.url}/loop`, { timeoutMs: 2000 })).rejects.toThrow(/more than 3 redirects/);
  });
});

describe('checkOutboundUrl (when an admin saves a URL)', () => {
  it('refuses internal literals and names, accepts a name that does not resolve yet', async () => {
    for (const url of ['http://127.0.0.1:9/x', 'http://10.1.2.3/x', 'http://[::1]/x', 'http://169.254.169.254/', 'http://localhost:5678/webhook']) {
      await refusal(checkOutboundUrl(strict, url));
    }
    await refusal(checkOutboundUrl(strict, 'gopher://example.com/'));
    await expect(checkOutboundUrl(strict, 'https://hooks.invalid/x')).resolves.toBeUndefined();
    await expect(checkOutboundUrl(createOutboundPolicy(['127.0.0.1']), 'http://127.0.0.1:9/x')).resolves.toBeUndefined();
  });
});
