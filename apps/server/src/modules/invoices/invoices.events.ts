import type { AppServices } from '../../app.js';
import { defineJob } from '../../platform/jobs/jobs.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { makeDueInvoices } from './invoices.service.js';

/** `company-{id}-payment` with action CONCLUIDA (spec part 2 §7) reaches the company's admins (their billing room, kept while overdue). */
export function subscribeInvoiceEvents(services: AppServices): void {
  services.events.on('payment.concluded', ({ companyId, payload }) => {
    services.publisher.toRooms(companyId, [rooms.billing(companyId)], 'payment', payload);
  });
  registerInvoiceJob(services);
}

const INVOICE_RUN_KEY = 'billing-invoices';
/** The invoice job runs this often; it is idempotent, so "daily" is met with room to spare after downtime. */
const INVOICE_RUN_SECONDS = 3600;

/**
 * The billing job: makes due invoices, then queues its next run (one queued run at a
 * time: singleton key on a 'short' queue). Several nodes or a double run make no
 * second invoice (one per company and due date).
 */
function registerInvoiceJob(services: AppServices): void {
  if (!services.jobs) return;
  const jobs = services.jobs;
  const job = defineJob<{ at?: string }>({
    name: 'billing.invoices',
    options: { policy: 'short', retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
    async handler() {
      try {
        await makeDueInvoices(services);
      } finally {
        await jobs.send(job, {}, { startAfter: INVOICE_RUN_SECONDS, singletonKey: INVOICE_RUN_KEY });
      }
    },
  });
  jobs.register(job);
  void jobs.send(job, {}, { singletonKey: INVOICE_RUN_KEY }).catch(() => undefined);
}
