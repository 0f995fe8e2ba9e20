import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listenForMetrics } from './metrics.routes.js';
import { usePostgres } from '../../test/test-database.js';
import { socketClients, type SocketClients } from '../../test/socket-clients.js';
import { createTestContext, type TestContext } from '../../test/test-app.js';

const METRICS_TOKEN = 'scrape-token-0123456789abcdef';
const docs = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../../docs');

/** The metric families a text names (a sample's _bucket, _count and _sum belong to their histogram). */
function familiesNamed(text: string): Set<string> {
  const names = text.match(/\b(?:atende|process|nodejs)_[a-z0-9_]+/g) ?? [];
  return new Set(names.map((name) => name.replace(/_(bucket|count|sum)$/, '')));
}

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** Prometheus's text format, the samples only. */
function parseSamples(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!match?.[1] || match[3] === undefined) continue;
    const labels: Record<string, string> = {};
    for (const [, key, value] of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) if (key) labels[key] = value ?? '';
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The value of the one sample with these labels (among others); undefined when there is none. */
function valueOf(samples: Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find((s) => s.name === name && Object.entries(labels).every(([key, value]) => s.labels[key] === value))?.value;
}

describe('GET /metrics with METRICS_TOKEN set, scraped over HTTP after real activity', () => {
  let t: TestContext;
  let base: string;
  let sockets: SocketClients;
  let ticketId: number;
  let samples: Sample[];
  let families: Set<string>;

  const scrape = (authorization?: string) => fetch(`${base}/metrics`, authorization ? { headers: { authorization } } : {});

  beforeAll(async () => {
    t = await createTestContext({ listen: true, realtime: true, env: { METRICS_TOKEN } });
    const address = t.app.server.address();
    if (!address || typeof address === 'string') throw new Error('not listening');
    base = `http://127.0.0.1:${address.port}`;
    sockets = socketClients(t.app);

    // A sign-in, a sandbox connection, a customer's message (and its redelivery), an agent's answer, an open socket.
    const company = await t.factories.buildCompany();
    const { token } = await company.admin.login();
    const connection = await t.request(token, 'POST', '/whatsapp', { name: 'Sandbox', provider: 'sandbox' });
    expect(connection.statusCode).toBe(201);
    const sandboxId = connection.json<{ id: number }>().id;
    const inbound = await t.request(token, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511988887777', name: 'Cliente', body: 'Olá', id: 'metrics-1' });
    expect(inbound.statusCode).toBe(201);
    ticketId = inbound.json<{ ticketId: number }>().ticketId;
    expect((await t.request(token, 'POST', `/sandbox/${sandboxId}/inbound`, { from: '5511988887777', body: 'Olá', id: 'metrics-1' })).json()).toMatchObject({ duplicate: true });
    expect((await t.request(token, 'GET', `/tickets/${ticketId}`)).statusCode).toBe(200);
    expect((await t.request(token, 'PUT', `/tickets/${ticketId}`, { status: 'open' })).statusCode).toBe(200);
    expect((await t.request(token, 'POST', `/messages/${ticketId}`, { body: 'Bom dia, como posso ajudar?' })).statusCode).toBeLessThan(300);
    await sockets.connect(token, 'ready');

    const response = await scrape(`Bearer ${METRICS_TOKEN}`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await response.text();
    samples = parseSamples(text);
    families = new Set([...text.matchAll(/^# TYPE (\S+)/gm)].map((match) => match[1] ?? ''));
  });
  afterAll(async () => {
    sockets?.closeAll();
    await t?.close();
  });

  it('counts HTTP requests by route pattern and status, with their latency, never by the raw URL', () => {
    expect(valueOf(samples, 'atende_http_request_duration_seconds_count', { method: 'POST', route: '/auth/login', status: '200' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'atende_http_request_duration_seconds_count', { method: 'GET', route: '/tickets/:id', status: '200' })).toBe(1);
    expect(valueOf(samples, 'atende_http_request_duration_seconds_bucket', { route: '/tickets/:id', le: '+Inf' })).toBe(1);
    expect(valueOf(samples, 'atende_http_request_duration_seconds_sum', { route: '/tickets/:id' })).toBeGreaterThan(0);
    const routes = new Set(samples.filter((s) => s.name.startsWith('atende_http_')).map((s) => s.labels.route));
    expect([...routes].filter((route) => route?.includes(String(ticketId)))).toEqual([]);
  });

  it('counts inbound messages by channel and result, with the ingest latency', () => {
    expect(valueOf(samples, 'atende_inbound_messages_total', { channel: 'sandbox', result: 'stored' })).toBe(1);
    expect(valueOf(samples, 'atende_inbound_messages_total', { channel: 'sandbox', result: 'duplicate' })).toBe(1);
    expect(valueOf(samples, 'atende_inbound_ingest_duration_seconds_count', { channel: 'sandbox' })).toBe(2);
  });

  it('counts outgoing sends by provider and result, with the channel latency', () => {
    expect(valueOf(samples, 'atende_outgoing_sends_total', { provider: 'sandbox', result: 'sent' })).toBe(1);
    expect(valueOf(samples, 'atende_outgoing_send_duration_seconds_count', { provider: 'sandbox' })).toBe(1);
  });

  it('reads the job queues, the connections by state, the open sockets and the database pool at scrape time', () => {
    const queues = samples.filter((s) => s.name === 'atende_job_queue_depth');
    expect(queues.length).toBeGreaterThan(0);
    expect(new Set(queues.map((s) => s.labels.state))).toEqual(new Set(['ready', 'deferred', 'active']));
    expect(samples.some((s) => s.name === 'atende_job_queue_oldest_age_seconds')).toBe(true);
    expect(valueOf(samples, 'atende_connections', { provider: 'sandbox', status: 'CONNECTED' })).toBeGreaterThanOrEqual(1);
    expect(valueOf(samples, 'atende_realtime_sockets')).toBe(1);
    // PostgreSQL has a pool; the embedded database has none and says nothing of one.
    if (usePostgres) {
      expect(valueOf(samples, 'atende_db_pool_max')).toBeGreaterThan(0);
      expect(valueOf(samples, 'atende_db_pool_connections')).toBeGreaterThan(0);
      expect(valueOf(samples, 'atende_db_pool_waiting')).toBe(0);
    } else expect(samples.some((s) => s.name.startsWith('atende_db_pool'))).toBe(false);
    expect(valueOf(samples, 'atende_info', { database: t.database.kind })).toBe(1);
  });

  it("includes the process's own metrics", () => {
    for (const name of ['process_cpu_user_seconds_total', 'process_resident_memory_bytes', 'nodejs_eventloop_lag_seconds', 'nodejs_heap_size_used_bytes']) {
      expect(valueOf(samples, name), name).toBeGreaterThanOrEqual(0);
    }
  });

  it('has every family the Grafana dashboard and docs/operations.md name (the pool only on PostgreSQL)', () => {
    const named = new Set([...familiesNamed(readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8')), ...familiesNamed(readFileSync(path.join(docs, 'operations.md'), 'utf8'))]);
    const missing = [...named].filter((name) => !families.has(name) && (usePostgres || !name.startsWith('atende_db_pool')));
    expect(missing).toEqual([]);
    // And the dashboard shows every family of ours.
    const ours = [...families].filter((name) => name.startsWith('atende_') && name !== 'atende_info');
    expect(ours.filter((name) => !familiesNamed(readFileSync(path.join(docs, 'grafana-dashboard.json'), 'utf8')).has(name))).toEqual([]);
  });

  it('answers 401 without the token, with a wrong one or another scheme, and says nothing', async () => {
    for (const authorization of [undefined, 'Bearer wrong-token-0123456789abcdef', `Bearer ${METRICS_TOKEN}x`, `Basic ${METRICS_TOKEN}`, METRICS_TOKEN]) {
      const response = await scrape(authorization);
      expect(response.status, String(authorization)).toBe(401);
      expect(response.headers.get('www-authenticate')).toMatch(/^Bearer/);
      expect(await response.text()).not.toContain('atende_');
    }
  });

  it('serves the same metrics alone on METRICS_PORT, for nodes that serve no API', async () => {
    const server = await listenForMetrics({ metrics: t.app.services.metrics, token: METRICS_TOKEN, port: 0, host: '127.0.0.1', logger: t.app.log });
    try {
      const own = `http://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
      const scraped = await fetch(`${own}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
      expect(scraped.status).toBe(200);
      expect(valueOf(parseSamples(await scraped.text()), 'atende_outgoing_sends_total', { provider: 'sandbox', result: 'sent' })).toBe(1);
      expect((await fetch(`${own}/metrics`)).status).toBe(401);
      expect((await fetch(`${own}/tickets`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).status).toBe(404);
    } finally {
      await server.close();
    }
  });

  it('is not a company route: a user session is no credential', async () => {
    const { token } = await t.login('admin@admin.com', 'Admin123!');
    expect((await scrape(`Bearer ${token}`)).status).toBe(401);
  });
});

describe('GET /metrics without METRICS_TOKEN', () => {
  let t: TestContext;
  beforeAll(async () => {
    t = await createTestContext();
  });
  afterAll(() => t?.close());

  it('answers 404, whatever the caller sends', async () => {
    for (const authorization of [undefined, 'Bearer anything-at-all-0123456789']) {
      const response = await t.app.inject({ method: 'GET', url: '/metrics', headers: authorization ? { authorization } : {} });
      expect(response.statusCode).toBe(404);
      expect(response.json()).toEqual({ error: 'ERR_NOT_FOUND' });
    }
  });
});
