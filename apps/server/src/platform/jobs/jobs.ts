import pg from 'pg';
import PgBoss from 'pg-boss';
import type { Database } from '../db/client.js';
import type { JobQueueReading } from '../metrics.js';

/** pg-boss tables live apart from ours so drizzle migrations never see them. */
const SCHEMA = 'pgboss';

export interface JobQueueOptions {
  /**
   * pg-boss queue policy. 'short' keeps at most one queued job per singletonKey
   * (e.g. one pending timer per ticket); 'standard' (default) ignores the key
   * unless throttled.
   */
  policy?: 'standard' | 'short' | 'singleton' | 'stately';
  retryLimit?: number;
  /** Seconds before the first retry. */
  retryDelay?: number;
  retryBackoff?: boolean;
  expireInSeconds?: number;
}

export interface JobDefinition<T extends object> {
  /** Queue name: letters, digits, '-', '_', '.', '/' (pg-boss rule). */
  name: string;
  /**
   * Jobs carry ids and the company id only (STYLE.md): the handler reloads its
   * records and returns early when they are gone. A throw makes pg-boss retry.
   */
  handler(data: T, job: { id: string }): Promise<void>;
  options?: JobQueueOptions;
}

/** Identity helper so `defineJob<{ ticketId: number }>({...})` types the handler and every `send`. */
export function defineJob<T extends object>(def: JobDefinition<T>): JobDefinition<T> {
  return def;
}

/**
 * Registers a job that runs about every `everySeconds()` seconds wherever jobs are
 * worked: each run queues the next, even when it throws, on a 'short' queue keyed by
 * the job's name (one queued run at a time, so several nodes or a second start make
 * one chain), and registering queues the first run (at once unless `firstAfterSeconds`
 * says). `run` must be idempotent: a run a dead node held is retried, and a node
 * that starts while a run is under way queues one more at once. `now` is the clock
 * the runs are timed by (tests replace it).
 */
export function registerRecurringJob(
  jobs: Jobs,
  def: {
    name: string;
    everySeconds(): number;
    firstAfterSeconds?: number;
    /** What it answers is not used. */
    run(): Promise<unknown>;
    options?: Omit<JobQueueOptions, 'policy'>;
    logger: JobsLogger;
    now?(): Date;
  },
): void {
  const now = def.now ?? (() => new Date());
  const queueNext = (afterSeconds: number) => jobs.send(job, {}, { startAfter: new Date(now().getTime() + afterSeconds * 1000), singletonKey: def.name });
  const job = defineJob<Record<string, never>>({
    name: def.name,
    options: { ...def.options, policy: 'short' },
    async handler() {
      try {
        await def.run();
      } finally {
        await queueNext(def.everySeconds());
      }
    },
  });
  jobs.register(job);
  queueNext(def.firstAfterSeconds ?? 0).catch((error: unknown) => def.logger.error({ err: error }, `${def.name}: first run not queued`));
}

export interface SendJobOptions {
  /** A Date, or a number of seconds from now (pg-boss semantics). */
  startAfter?: Date | number;
  /** Deduplication key; effective on queues whose policy is not 'standard'. */
  singletonKey?: string;
}

export interface JobsLogger {
  info(o: object | string, m?: string): void;
  error(o: object | string, m?: string): void;
}

export interface Jobs {
  /** Call before start(); registering after start() also works on a worker node. */
  register<T extends object>(def: JobDefinition<T>): void;
  /** `work: true` on the node running the `worker` service; api-only nodes only send. */
  start(options: { work: boolean }): Promise<void>;
  send<T extends object>(def: JobDefinition<T>, data: T, options?: SendJobOptions): Promise<string | null>;
  /**
   * Stops fetching; running handlers get `timeoutMs` (default 10 s) to finish,
   * then pg-boss fails them, which hands them back for a retry.
   */
  stop(options?: { timeoutMs?: number }): Promise<void>;
  /** Every queue's jobs waiting, scheduled and running, and its oldest wait (metrics); empty before start(). */
  queueStats(): Promise<JobQueueReading[]>;
}

export interface JobsTuning {
  /** Worker polling interval; pg-boss accepts 0.5 s at least. Tests lower it. */
  pollingIntervalSeconds?: number;
  /**
   * How often the worker node fails jobs whose lease (`expireInSeconds`) ran out
   * so they are retried: a job taken by a node that died waits this long at most
   * after its lease. pg-boss's default is 120 s.
   */
  maintenanceIntervalSeconds?: number;
}

// A registry stores handlers of different payload types; each one is only ever
// called with the data sent through its own definition, which `send` enforces.
type StoredJob = JobDefinition<object>;

/**
 * PostgreSQL channel on which a node that sends a job due now names its queue: the
 * worker node listening on it wakes that queue's worker at once, instead of at its next
 * poll (2 s). Polling stays the fallback (a notification is lost when no one listens).
 */
const DUE_CHANNEL = 'atende_jobs_due';
/** PostgreSQL's SQLSTATE for a transaction it rolled back to break a deadlock. */
const DEADLOCK_DETECTED = '40P01';
const QUEUE_SETUP_ATTEMPTS = 10;

/**
 * Per queue: jobs due and waiting (`created` or `retry` whose start_after passed), due later,
 * running, and how long the oldest due one has waited. pg-boss's fetch index covers the
 * waiting jobs (`state < 'active'`); finished jobs are left out by the join.
 */
const QUEUE_STATS_SQL = `
  SELECT q.name AS queue,
    count(*) FILTER (WHERE j.state < 'active' AND j.start_after <= now()) AS ready,
    count(*) FILTER (WHERE j.state < 'active' AND j.start_after > now()) AS deferred,
    count(*) FILTER (WHERE j.state = 'active') AS active,
    coalesce(extract(epoch FROM now() - min(j.start_after) FILTER (WHERE j.state < 'active' AND j.start_after <= now())), 0) AS oldest
  FROM ${SCHEMA}.queue q LEFT JOIN ${SCHEMA}.job j ON j.name = q.name AND j.state <= 'active'
  GROUP BY q.name ORDER BY q.name`;
const LISTEN_RETRY_MS = 1000;

export function createJobs(database: Database, logger: JobsLogger, tuning: JobsTuning = {}): Jobs {
  const definitions = new Map<string, StoredJob>();
  const readyQueues = new Set<string>();
  let boss: PgBoss | null = null;
  let working = false;
  /** pg-boss worker id per queue worked on this node. */
  const workers = new Map<string, string>();
  // Sends made while the app is built, before start() (the outbound sweep's first run, in the
  // test harness that starts jobs after building the app), wait for it, for a while.
  let markStarted: () => void = () => undefined;
  const started = new Promise<void>((resolve) => {
    markStarted = resolve;
  });
  const EARLY_SEND_WAIT_MS = 30_000;

  function connectionOptions(): PgBoss.ConstructorOptions {
    // PGlite has one connection and no wire protocol: pg-boss runs through our
    // executor. PostgreSQL gets pg-boss's own small pool so a busy worker never
    // starves the request pool.
    if (database.kind === 'postgres' && database.url) {
      return { connectionString: database.url, schema: SCHEMA, max: 5 };
    }
    return { db: database.sql as PgBoss.Db, schema: SCHEMA };
  }

  // pg-boss's createQueue takes locks that deadlock when two run at once on
  // PostgreSQL (registrations made while the app is built, concurrent first
  // sends): queue setup goes one at a time on a node. Nodes started together still
  // run theirs at once: PostgreSQL then rolls one back (deadlock detected), which
  // tries again.
  let queueSetup: Promise<void> = Promise.resolve();

  function ensureQueue(instance: PgBoss, def: StoredJob): Promise<void> {
    if (readyQueues.has(def.name)) return Promise.resolve();
    const next = queueSetup.then(async () => {
      if (readyQueues.has(def.name)) return;
      // create_queue is idempotent (ON CONFLICT DO NOTHING), so every node may call it.
      for (let attempt = 1; ; attempt += 1) {
        try {
          await instance.createQueue(def.name, { name: def.name, ...def.options });
          break;
        } catch (error) {
          if (attempt === QUEUE_SETUP_ATTEMPTS || (error as { code?: unknown }).code !== DEADLOCK_DETECTED) throw error;
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 100 * attempt));
        }
      }
      readyQueues.add(def.name);
    });
    // A failed setup must not block the queues after it.
    queueSetup = next.catch(() => undefined);
    return next;
  }

  /** The worker node's connection listening for due jobs sent by other nodes (PostgreSQL only). */
  let listener: pg.Client | null = null;
  let listening = false;

  async function listenForDueJobs(url: string): Promise<void> {
    if (!listening) return;
    const client = new pg.Client({ connectionString: url });
    const retry = () => {
      if (listener !== client) return;
      listener = null;
      client.end().catch(() => undefined);
      setTimeout(() => void listenForDueJobs(url), LISTEN_RETRY_MS).unref();
    };
    listener = client;
    client.on('notification', (message) => {
      const workerId = message.payload ? workers.get(message.payload) : undefined;
      if (workerId) boss?.notifyWorker(workerId);
    });
    client.on('error', (error) => {
      logger.error({ err: error }, 'jobs: due-job listener lost; polling meanwhile');
      retry();
    });
    client.on('end', retry);
    try {
      await client.connect();
      await client.query(`LISTEN ${DUE_CHANNEL}`);
    } catch (error) {
      logger.error({ err: error }, 'jobs: due-job listener not connected; polling meanwhile');
      retry();
    }
  }

  async function work(instance: PgBoss, def: StoredJob): Promise<void> {
    await ensureQueue(instance, def);
    const workerId = await instance.work<object>(
      def.name,
      { batchSize: 1, pollingIntervalSeconds: tuning.pollingIntervalSeconds ?? 2 },
      async ([job]) => {
        if (!job) return;
        try {
          await def.handler(job.data, { id: job.id });
        } catch (error) {
          logger.error({ err: error, job: def.name, jobId: job.id }, 'job failed');
          throw error;
        } finally {
          // pg-boss waits a whole polling interval after each fetch: a queue with
          // work left (a burst of webhooks) is drained without that pause.
          const id = workers.get(def.name);
          if (id) instance.notifyWorker(id);
        }
      },
    );
    workers.set(def.name, workerId);
  }

  return {
    register(def) {
      if (definitions.has(def.name)) throw new Error(`Job ${def.name} is registered twice`);
      const stored = def as unknown as StoredJob;
      definitions.set(def.name, stored);
      if (boss && working) {
        void work(boss, stored).catch((error: unknown) => logger.error({ err: error, job: def.name }, 'job worker failed to start'));
      }
    },

    async start({ work: shouldWork }) {
      if (boss) return;
      const instance = new PgBoss({
        ...connectionOptions(),
        // Maintenance and cron belong to the worker service; api-only nodes just insert jobs.
        supervise: shouldWork,
        schedule: shouldWork,
        ...(tuning.maintenanceIntervalSeconds ? { maintenanceIntervalSeconds: tuning.maintenanceIntervalSeconds } : {}),
      });
      instance.on('error', (error) => logger.error({ err: error }, 'pg-boss error'));
      await instance.start();
      boss = instance;
      working = shouldWork;
      for (const def of definitions.values()) {
        if (shouldWork) await work(instance, def);
        else await ensureQueue(instance, def);
      }
      if (shouldWork && database.kind === 'postgres' && database.url) {
        listening = true;
        await listenForDueJobs(database.url);
      }
      logger.info({ jobs: [...definitions.keys()], work: shouldWork }, 'jobs started');
      markStarted();
    },

    async send(def, data, options = {}) {
      if (!boss) {
        let timer: NodeJS.Timeout | undefined;
        const timeout = new Promise<'timeout'>((resolve) => {
          timer = setTimeout(() => resolve('timeout'), EARLY_SEND_WAIT_MS);
          timer.unref();
        });
        const outcome = await Promise.race([started, timeout]);
        clearTimeout(timer);
        if (outcome === 'timeout' || !boss) throw new Error('Jobs are not started');
      }
      await ensureQueue(boss, def as unknown as StoredJob);
      // The policy belongs to the queue (set in ensureQueue); the rest are per-job defaults.
      const { policy: _policy, ...jobDefaults } = def.options ?? {};
      const sendOptions: PgBoss.SendOptions = { ...jobDefaults };
      if (options.startAfter !== undefined) sendOptions.startAfter = options.startAfter;
      if (options.singletonKey !== undefined) sendOptions.singletonKey = options.singletonKey;
      const id = await boss.send(def.name, data, sendOptions);
      // A job due now wakes this node's worker of its queue instead of waiting for its next poll.
      const workerId = workers.get(def.name);
      if (id && options.startAfter === undefined) {
        if (workerId) boss.notifyWorker(workerId);
        // The worker node may be another one: it hears the queue's name (one small query, after the job is stored).
        else if (database.kind === 'postgres') {
          await boss
            .getDb()
            .executeSql('select pg_notify($1, $2)', [DUE_CHANNEL, def.name])
            .catch((error: unknown) => logger.error({ err: error, job: def.name }, 'jobs: due-job notification not sent; the worker polls'));
        }
      }
      return id;
    },

    async queueStats() {
      if (!boss) return [];
      const { rows } = await database.sql.executeSql(QUEUE_STATS_SQL);
      return rows.map((row) => ({
        queue: String(row.queue),
        ready: Number(row.ready),
        deferred: Number(row.deferred),
        active: Number(row.active),
        oldestReadySeconds: Number(row.oldest),
      }));
    },

    async stop({ timeoutMs = 10_000 } = {}) {
      const instance = boss;
      if (!instance) return;
      boss = null;
      working = false;
      listening = false;
      const closing = listener;
      listener = null;
      await closing?.end().catch(() => undefined);
      readyQueues.clear();
      workers.clear();
      // graceful: running handlers finish; our PGlite executor is not pg-boss's to close.
      await instance.stop({ graceful: true, wait: true, timeout: timeoutMs });
    },
  };
}
