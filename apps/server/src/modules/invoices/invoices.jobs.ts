import { registerRecurringJob } from '../../platform/jobs/jobs.js';
import type { Platform } from '../../platform/platform.js';
import { makeDueInvoices } from './invoices.service.js';

/** The invoice job runs this often; it is idempotent, so "daily" is met with room to spare after downtime. */
const INVOICE_RUN_SECONDS = 3600;

/** The billing job makes due invoices; several nodes or a double run make no second invoice (one per company and due date). */
export function registerInvoiceJobs(deps: Pick<Platform, 'db' | 'config' | 'jobs' | 'logger'>): void {
  registerRecurringJob(deps.jobs, {
    name: 'billing.invoices',
    everySeconds: () => INVOICE_RUN_SECONDS,
    options: { retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
    run: () => makeDueInvoices(deps),
    logger: deps.logger.child({ module: 'billing' }),
  });
}
