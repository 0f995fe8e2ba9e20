import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics (`GET /metrics`, docs/operations.md "Metrics").
 *
 * Areas report through this port and never import prom-client: the HTTP hook, the
 * ingest, the channel registry's sends. What is read rather than counted (job queues,
 * connections, sockets, the database pool) comes from the sources the composition
 * root hands `readFrom`, called when Prometheus scrapes. Each process has its own
 * registry: every node is scraped on its own.
 *
 * Without METRICS_TOKEN the port is a no-op, so nothing is measured nor kept.
 */
export interface Metrics {
  readonly enabled: boolean;
  /** One answered HTTP request: `route` is the route's pattern (`/tickets/:ticketId`), never the URL. */
  httpRequest(method: string, route: string, status: number, seconds: number): void;
  /** One message a channel handed the ingest, from that call to its answer (stored, published, followed up). */
  inboundMessage(channel: string, result: InboundResult, seconds: number): void;
  /** One message handed to a channel (text, media or template) and the channel's answer. */
  outgoingSend(provider: string, result: SendResult, seconds: number): void;
  /** Where the gauges read at scrape time come from; later calls add to or replace earlier sources. */
  readFrom(sources: Partial<MetricSources>): void;
  /** The text exposition of every metric, sources read now. */
  render(): Promise<{ contentType: string; body: string }>;
}

type InboundResult = 'stored' | 'duplicate' | 'ignored' | 'failed';
type SendResult = 'sent' | 'failed';

/** One job queue as the scrape sees it (every node's jobs: the queue lives in the database). */
export interface JobQueueReading {
  queue: string;
  /** Due and waiting for a worker. */
  ready: number;
  /** Scheduled for later (timers, retries after their delay). */
  deferred: number;
  /** Taken by a worker, not finished. */
  active: number;
  /** How long the oldest ready job has been due, in seconds; 0 when none is. */
  oldestReadySeconds: number;
}

interface ConnectionReading {
  provider: string;
  status: string;
  count: number;
}

/** A PostgreSQL pool's state; the embedded database (PGlite) has one connection and no pool. */
interface PoolReading {
  max: number;
  total: number;
  idle: number;
  /** Queries waiting for a connection. */
  waiting: number;
}

interface MetricSources {
  jobQueues(): Promise<JobQueueReading[]>;
  connections(): Promise<ConnectionReading[]>;
  openSockets(): number;
  /** Given only where there is a pool (PostgreSQL). */
  databasePool(): PoolReading;
}

interface SourceLogger {
  warn(o: object, m?: string): void;
}

const NO_METRICS: Metrics = {
  enabled: false,
  httpRequest() {},
  inboundMessage() {},
  outgoingSend() {},
  readFrom() {},
  render: () => Promise.resolve({ contentType: 'text/plain', body: '' }),
};

/** Seconds: from a fast API answer to a slow upload or a channel's timeout. */
const LATENCY_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

type Observe = (seconds: number) => void;

/**
 * A histogram's children by label values, made once per combination: a hot path
 * (every request, every message) then builds no label object, only the key.
 */
function cachedChildren(histogram: Histogram): (key: string, ...values: string[]) => Observe {
  const children = new Map<string, Observe>();
  return (key, ...values) => {
    let observe = children.get(key);
    if (!observe) {
      const child = histogram.labels(...values);
      observe = (seconds) => child.observe(seconds);
      children.set(key, observe);
    }
    return observe;
  };
}

function cachedCounters(counter: Counter): (key: string, ...values: string[]) => () => void {
  const children = new Map<string, () => void>();
  return (key, ...values) => {
    let inc = children.get(key);
    if (!inc) {
      const child = counter.labels(...values);
      inc = () => child.inc();
      children.set(key, inc);
    }
    return inc;
  };
}

export function createMetrics(options: { enabled: boolean; logger: SourceLogger; info?: Record<string, string> }): Metrics {
  if (!options.enabled) return NO_METRICS;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const registers = [registry];
  let sources: Partial<MetricSources> = {};

  const sourceErrors = new Counter({
    name: 'atende_metrics_source_errors_total',
    help: 'Scrape-time readings that failed (the gauge of that source is left empty for that scrape).',
    labelNames: ['source'],
    registers,
  });
  /** Runs a source at scrape time; a failure (the database down) empties its gauges and is counted, not thrown. */
  async function read<T>(source: keyof MetricSources, gauges: Gauge[], reading: () => T | Promise<T>, apply: (value: T) => void): Promise<void> {
    for (const gauge of gauges) gauge.reset();
    try {
      apply(await reading());
    } catch (error) {
      sourceErrors.labels(source).inc();
      options.logger.warn({ err: error, source }, 'metrics: a reading failed');
    }
  }

  const info = new Gauge({ name: 'atende_info', help: 'Always 1; its labels say what this process runs.', labelNames: Object.keys(options.info ?? {}), registers });
  info.set(options.info ?? {}, 1);

  const httpDuration = new Histogram({
    name: 'atende_http_request_duration_seconds',
    help: 'HTTP requests by method, route pattern and status, and how long they took to answer (_count: requests).',
    labelNames: ['method', 'route', 'status'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const httpChild = cachedChildren(httpDuration);

  const inboundTotal = new Counter({
    name: 'atende_inbound_messages_total',
    help: 'Messages the channels handed the ingest, by channel and result (stored, duplicate, ignored, failed).',
    labelNames: ['channel', 'result'],
    registers,
  });
  const inboundChild = cachedCounters(inboundTotal);
  const ingestDuration = new Histogram({
    name: 'atende_inbound_ingest_duration_seconds',
    help: 'From a channel handing a message to the ingest until it was stored, published and followed up.',
    labelNames: ['channel'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const ingestChild = cachedChildren(ingestDuration);

  const sendsTotal = new Counter({
    name: 'atende_outgoing_sends_total',
    help: 'Messages handed to a channel, by provider and result (sent, failed).',
    labelNames: ['provider', 'result'],
    registers,
  });
  const sendsChild = cachedCounters(sendsTotal);
  const sendDuration = new Histogram({
    name: 'atende_outgoing_send_duration_seconds',
    help: "How long a channel took to answer a send, by provider.",
    labelNames: ['provider'],
    buckets: LATENCY_BUCKETS,
    registers,
  });
  const sendChild = cachedChildren(sendDuration);

  const queueDepth = new Gauge({
    name: 'atende_job_queue_depth',
    help: 'Jobs per queue and state: ready (due, waiting for a worker), deferred (due later), active (running). The same on every node.',
    labelNames: ['queue', 'state'],
    registers,
  });
  const queueAge = new Gauge({
    name: 'atende_job_queue_oldest_age_seconds',
    help: 'How long the oldest ready job of each queue has been due (0: none waits). The same on every node.',
    labelNames: ['queue'],
    registers,
  });
  const connections = new Gauge({
    name: 'atende_connections',
    help: 'WhatsApp connections by provider and status (CONNECTED, DISCONNECTED, qrcode, ...). The same on every node.',
    labelNames: ['provider', 'status'],
    registers,
  });
  const sockets = new Gauge({ name: 'atende_realtime_sockets', help: "Socket.IO connections open on this node.", registers });
  // Only where there is a pool (PostgreSQL): on the embedded database these are absent, not 0.
  let pool: { max: Gauge; total: Gauge; idle: Gauge; waiting: Gauge } | null = null;
  const poolGauges = () =>
    (pool ??= {
      max: new Gauge({ name: 'atende_db_pool_max', help: "This node's PostgreSQL pool size.", registers }),
      total: new Gauge({ name: 'atende_db_pool_connections', help: 'Connections the pool holds, busy or idle.', registers }),
      idle: new Gauge({ name: 'atende_db_pool_idle', help: 'Connections the pool holds idle.', registers }),
      waiting: new Gauge({ name: 'atende_db_pool_waiting', help: 'Queries waiting for a free connection.', registers }),
    });

  return {
    enabled: true,
    httpRequest(method, route, status, seconds) {
      httpChild(`${method} ${route} ${status}`, method, route, String(status))(seconds);
    },
    inboundMessage(channel, result, seconds) {
      inboundChild(`${channel} ${result}`, channel, result)();
      ingestChild(channel, channel)(seconds);
    },
    outgoingSend(provider, result, seconds) {
      sendsChild(`${provider} ${result}`, provider, result)();
      sendChild(provider, provider)(seconds);
    },
    readFrom(more) {
      sources = { ...sources, ...more };
      if (more.databasePool) poolGauges();
    },
    async render() {
      const { jobQueues, connections: readConnections, openSockets, databasePool } = sources;
      await Promise.all([
        jobQueues &&
          read('jobQueues', [queueDepth, queueAge], jobQueues, (queues) => {
            for (const q of queues) {
              queueDepth.set({ queue: q.queue, state: 'ready' }, q.ready);
              queueDepth.set({ queue: q.queue, state: 'deferred' }, q.deferred);
              queueDepth.set({ queue: q.queue, state: 'active' }, q.active);
              queueAge.set({ queue: q.queue }, q.oldestReadySeconds);
            }
          }),
        readConnections &&
          read('connections', [connections], readConnections, (rows) => {
            for (const row of rows) connections.set({ provider: row.provider, status: row.status }, row.count);
          }),
        openSockets && read('openSockets', [sockets], openSockets, (count) => sockets.set(count)),
        databasePool &&
          pool &&
          read('databasePool', Object.values(pool), databasePool, (reading) => {
            if (!pool) return;
            pool.max.set(reading.max);
            pool.total.set(reading.total);
            pool.idle.set(reading.idle);
            pool.waiting.set(reading.waiting);
          }),
      ]);
      return { contentType: registry.contentType, body: await registry.metrics() };
    },
  };
}
