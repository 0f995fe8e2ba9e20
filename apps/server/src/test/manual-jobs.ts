import type { JobDefinition, Jobs, SendJobOptions } from '../platform/jobs/jobs.js';

export interface QueuedJob {
  name: string;
  data: object;
  runAt: Date;
  singletonKey?: string;
}

/**
 * A job runner for tests that runs nothing by itself: jobs are queued with the
 * time they become due, and the test runs the due ones at a simulated time. The
 * queue can outlive an app (pass it to the next runner) as pg-boss's table does.
 */
export interface ManualJobs extends Jobs {
  readonly queue: QueuedJob[];
  /** Runs every job due at `now` (including jobs those jobs send that are due too); answers how many ran. */
  runDue(now: Date): Promise<number>;
  pending(name?: string): QueuedJob[];
}

export function createManualJobs(queue: QueuedJob[] = []): ManualJobs {
  const definitions = new Map<string, JobDefinition<object>>();
  let sequence = 0;
  return {
    queue,
    register(def) {
      if (definitions.has(def.name)) throw new Error(`Job ${def.name} is registered twice`);
      definitions.set(def.name, def as unknown as JobDefinition<object>);
    },
    async start() {},
    async stop() {},
    async queueStats() {
      const now = Date.now();
      const names = [...new Set([...definitions.keys(), ...queue.map((job) => job.name)])].sort();
      return names.map((name) => {
        const jobs = queue.filter((job) => job.name === name);
        const ready = jobs.filter((job) => job.runAt.getTime() <= now);
        const oldest = Math.min(now, ...ready.map((job) => job.runAt.getTime()));
        return { queue: name, ready: ready.length, deferred: jobs.length - ready.length, active: 0, oldestReadySeconds: (now - oldest) / 1000 };
      });
    },
    async send<T extends object>(def: JobDefinition<T>, data: T, options: SendJobOptions = {}) {
      const { startAfter } = options;
      const runAt = startAfter instanceof Date ? startAfter : new Date(Date.now() + (startAfter ?? 0) * 1000);
      // Like a pg-boss queue with a singleton policy: one queued job per key.
      if (options.singletonKey && queue.some((job) => job.name === def.name && job.singletonKey === options.singletonKey)) return null;
      queue.push({ name: def.name, data, runAt, ...(options.singletonKey ? { singletonKey: options.singletonKey } : {}) });
      sequence += 1;
      return `manual-${sequence}`;
    },
    async runDue(now) {
      let ran = 0;
      for (let round = 0; round < 20; round++) {
        const due = queue.filter((job) => job.runAt.getTime() <= now.getTime());
        if (due.length === 0) break;
        for (const job of due) queue.splice(queue.indexOf(job), 1);
        for (const job of due) {
          const def = definitions.get(job.name);
          if (!def) throw new Error(`no handler registered for ${job.name}`);
          await def.handler(job.data, { id: `manual-run-${ran}` });
          ran += 1;
        }
      }
      return ran;
    },
    pending(name) {
      return queue.filter((job) => name === undefined || job.name === name);
    },
  };
}
