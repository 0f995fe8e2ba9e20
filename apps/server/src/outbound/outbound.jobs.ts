import { defineJob, registerRecurringJob } from '../platform/jobs/jobs.js';
import { dispatchConnection, type OutboundDeps } from './outbound-dispatch.js';
import type { DispatchData } from './outbound-engine.js';
import { sweepOutbound } from './outbound-sweep.js';

/** Registers the engine's jobs with the app's runner and starts the sweep chain (from the composition root). */
export function registerOutboundJobs(deps: OutboundDeps): void {
  const { outbound } = deps;
  outbound.dispatchJob = defineJob<DispatchData>({
    name: 'outbound.dispatch',
    // One run at a time per connection (singletonKey = connection id), one more queued. A run
    // lasts at most runBudgetMs (20 s) plus one batch; the lease is short because a run a killed
    // node held blocks its connection until the lease ends and maintenance hands it back.
    options: { policy: 'stately', retryLimit: 5, retryDelay: 5, expireInSeconds: 40 },
    handler: (data) => dispatchConnection(deps, data),
  });
  deps.jobs.register(outbound.dispatchJob);
  registerRecurringJob(deps.jobs, {
    name: 'outbound.sweep',
    everySeconds: () => outbound.runtime.sweepSeconds,
    options: { retryLimit: 3, retryDelay: 10, expireInSeconds: 300 },
    run: () => sweepOutbound(deps),
    logger: outbound.runtime.logger,
  });
}
