import type { CloudApiJobs } from './cloud-api.jobs.js';
import type { CloudApiProvider } from './cloud-api.provider.js';

/** The Cloud API's provider and jobs, wired once while the app is built. */
export interface CloudApiChannel {
  provider: CloudApiProvider;
  jobs: CloudApiJobs;
}

/** Where the Cloud API's routes find it: the channel registry (the composition root's `channels`). */
export interface CloudApiChannels {
  cloudApi(): CloudApiChannel;
}
