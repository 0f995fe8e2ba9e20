import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../db/client.js';
import { createJobs, defineJob, registerRecurringJob, type Jobs } from './jobs.js';

const silent = { info: () => undefined, error: () => undefined };
// Same variable and default as src/test/test-database.ts.
const ADMIN_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

async function waitFor(check: () => boolean, timeoutMs: number): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Harness {
  open(): Promise<Database>;
  cleanup(): Promise<void>;
}

function pgliteHarness(): Harness {
  return { open: () => openDatabase({}), cleanup: async () => undefined };
}

/** A throwaway database per run, so parallel runs and reruns never share pg-boss tables. */
function postgresHarness(): Harness {
  const name = `atende_jobs_${randomBytes(6).toString('hex')}`;
  const admin = async (sql: string) => {
    const client = new pg.Client({ connectionString: ADMIN_URL });
    await client.connect();
    try {
      await client.query(sql);
    } finally {
      await client.end();
    }
  };
  return {
    async open() {
      await admin(`create database ${name}`);
      const url = new URL(ADMIN_URL);
      url.pathname = `/${name}`;
      return openDatabase({ url: url.toString(), poolSize: 3 });
    },
    cleanup: () => admin(`drop database if exists ${name} with (force)`),
  };
}

const modes: { name: string; enabled: boolean; harness: () => Harness }[] = [
  { name: 'pglite', enabled: true, harness: pgliteHarness },
  { name: 'postgres', enabled: process.env.TEST_DATABASE === 'postgres', harness: postgresHarness },
];

for (const mode of modes) {
  describe.runIf(mode.enabled)(`jobs on ${mode.name}`, () => {
    const harness = mode.harness();
    let database: Database;
    let jobs: Jobs;

    const greeted: { data: { ticketId: number }; id: string }[] = [];
    const greet = defineJob<{ ticketId: number }>({
      name: 'test-greet',
      async handler(data, job) {
        greeted.push({ data, id: job.id });
      },
    });

    let flakyAttempts = 0;
    const flaky = defineJob<{ n: number }>({
      name: 'test-flaky',
      options: { retryLimit: 2, retryDelay: 0 },
      async handler() {
        flakyAttempts += 1;
        throw new Error('always fails');
      },
    });

    const reminded: number[] = [];
    const remind = defineJob<{ ticketId: number }>({
      name: 'test-remind',
      options: { policy: 'short' },
      async handler(data) {
        reminded.push(data.ticketId);
      },
    });

    const delayedRuns: number[] = [];
    const delayed = defineJob<{ at: number }>({
      name: 'test-delayed',
      async handler() {
        delayedRuns.push(Date.now());
      },
    });

    beforeAll(async () => {
      database = await harness.open();
      await database.migrate();
      jobs = createJobs(database, silent, { pollingIntervalSeconds: 0.5 });
      jobs.register(greet);
      jobs.register(flaky);
      jobs.register(delayed);
      jobs.register(remind);
      await jobs.start({ work: true });
    });

    afterAll(async () => {
      await jobs?.stop();
      await database?.close();
      await harness.cleanup();
    });

    it('works a sent job once, with its data', async () => {
      const id = await jobs.send(greet, { ticketId: 42 });
      expect(id).toEqual(expect.any(String));
      await waitFor(() => greeted.length > 0, 5000);
      // Give a second poll the chance to (wrongly) pick it up again.
      await sleep(700);
      expect(greeted).toEqual([{ data: { ticketId: 42 }, id }]);
    });

    it('retries a failing job up to its retryLimit', async () => {
      await jobs.send(flaky, { n: 1 });
      // 1 run + 2 retries.
      await waitFor(() => flakyAttempts >= 3, 8000);
      await sleep(800);
      expect(flakyAttempts).toBe(3);
    });

    it('does not run a startAfter job early', async () => {
      const sentAt = Date.now();
      await jobs.send(delayed, { at: sentAt }, { startAfter: new Date(sentAt + 1500) });
      await sleep(1000);
      expect(delayedRuns).toEqual([]);
      await waitFor(() => delayedRuns.length === 1, 5000);
      expect(delayedRuns[0]! - sentAt).toBeGreaterThanOrEqual(1400);
    });

    it('lets an api-only node send for a worker node to work', async () => {
      const sender = createJobs(database, silent);
      sender.register(remind);
      await sender.start({ work: false });
      try {
        const later = new Date(Date.now() + 1000);
        expect(await sender.send(remind, { ticketId: 7 }, { singletonKey: 'ticket-7', startAfter: later })).toEqual(expect.any(String));
        // A 'short' queue keeps one queued job per key: the duplicate is refused.
        expect(await sender.send(remind, { ticketId: 7 }, { singletonKey: 'ticket-7', startAfter: later })).toBeNull();
        await waitFor(() => reminded.length > 0, 5000);
        await sleep(600);
        expect(reminded).toEqual([7]);
      } finally {
        await sender.stop();
      }
    });

    it.runIf(mode.name === 'postgres')('wakes the worker node at once when another node sends a job due now (LISTEN/NOTIFY), not at its next poll', async () => {
      const delays: number[] = [];
      const wake = defineJob<{ at: number }>({
        name: 'test-wake',
        async handler(data) {
          delays.push(Date.now() - data.at);
        },
      });
      // A worker that polls every 30 s, and an api-only node, as in production (api nodes + a worker).
      const worker = createJobs(database, silent, { pollingIntervalSeconds: 30 });
      worker.register(wake);
      await worker.start({ work: true });
      const sender = createJobs(database, silent);
      sender.register(wake);
      await sender.start({ work: false });
      try {
        // Past the worker's first fetch at start: from now on only a wake-up fetches before 30 s.
        await sleep(1500);
        for (let i = 0; i < 3; i++) {
          await sender.send(wake, { at: Date.now() });
          await waitFor(() => delays.length === i + 1, 10_000);
        }
        expect(Math.max(...delays)).toBeLessThan(5000);
      } finally {
        await sender.stop();
        await worker.stop();
      }
    });

    it('runs a recurring job again after each run, a failing one too, with one run queued at a time however many nodes register it', async () => {
      let runs = 0;
      const recurring = {
        name: 'test-recurring',
        everySeconds: () => 1,
        options: { retryLimit: 0 },
        logger: silent,
        async run() {
          runs += 1;
          if (runs === 2) throw new Error('one run fails');
        },
      };
      const queued = async () =>
        Number((await database.sql.executeSql(`select count(*)::int as n from pgboss.job where name = 'test-recurring' and state in ('created', 'retry')`)).rows[0]?.n);
      // A second node registering it (or a restart) joins the same chain.
      const otherNode = createJobs(database, silent, { pollingIntervalSeconds: 0.5 });
      try {
        registerRecurringJob(jobs, recurring);
        registerRecurringJob(otherNode, recurring);
        await otherNode.start({ work: true });
        const seen = new Set<number>();
        const started = Date.now();
        while (runs < 4) {
          if (Date.now() - started > 15_000) throw new Error(`the chain stopped after ${runs} runs`);
          seen.add(await queued());
          await sleep(50);
        }
        expect(Math.max(...seen)).toBeLessThanOrEqual(1);
      } finally {
        await otherNode.stop();
      }
    });

    it.runIf(mode.name === 'postgres')('creates the queues of nodes started together, a worker for each, though their pg-boss setups deadlock one another', async () => {
      const errors: unknown[] = [];
      const logger = { info: () => undefined, error: (entry: unknown) => errors.push(entry) };
      const ran = new Set<string>();
      const queues = Array.from({ length: 6 }, (_, i) =>
        defineJob<{ n: number }>({
          name: `test-together-${i}`,
          async handler() {
            ran.add(`test-together-${i}`);
          },
        }),
      );
      // As main.ts does: start, then the app's registrations; the worker node creates each
      // queue as it registers it, the api nodes as they first send to it.
      const worker = createJobs(database, logger, { pollingIntervalSeconds: 0.5 });
      const senders = [createJobs(database, logger), createJobs(database, logger)];
      try {
        await Promise.all([worker.start({ work: true }), ...senders.map((sender) => sender.start({ work: false }))]);
        for (const def of queues) worker.register(def);
        await Promise.all(senders.flatMap((sender) => queues.map((def, n) => sender.send(def, { n }))));
        await waitFor(() => ran.size === queues.length, 15_000);
        expect(errors).toEqual([]);
      } finally {
        await Promise.all([worker, ...senders].map((node) => node.stop()));
      }
    });

    it('counts the jobs of every queue ready, deferred and running, and how long the oldest ready one has waited (metrics)', async () => {
      const waiting = defineJob<{ n: number }>({ name: 'test-stats', async handler() {} });
      // An api-only node: nobody works this queue, so what it sends stays queued.
      const sender = createJobs(database, silent);
      sender.register(waiting);
      await sender.start({ work: false });
      try {
        await sender.send(waiting, { n: 1 });
        await sender.send(waiting, { n: 2 });
        await sender.send(waiting, { n: 3 }, { startAfter: new Date(Date.now() + 60_000) });
        await sleep(1100);
        const stats = await sender.queueStats();
        expect(stats.find((q) => q.queue === 'test-stats')).toMatchObject({ ready: 2, deferred: 1, active: 0 });
        expect(stats.find((q) => q.queue === 'test-stats')?.oldestReadySeconds).toBeGreaterThanOrEqual(1);
        // Every queue is listed, idle ones with nothing waiting.
        expect(stats.find((q) => q.queue === 'test-greet')).toMatchObject({ ready: 0, deferred: 0, oldestReadySeconds: 0 });
      } finally {
        await sender.stop();
      }
    });

    it('gives every queue registered after start a worker, however many at once', async () => {
      const ran = new Set<string>();
      const late = Array.from({ length: 8 }, (_, i) =>
        defineJob<{ n: number }>({
          name: `test-late-${i}`,
          async handler() {
            ran.add(`test-late-${i}`);
          },
        }),
      );
      for (const def of late) jobs.register(def);
      await Promise.all(late.map((def, n) => jobs.send(def, { n })));
      await waitFor(() => ran.size === late.length, 10_000);
      expect([...ran].sort()).toEqual(late.map((def) => def.name).sort());
    });
  });
}
