import pino from 'pino';
import type { AppServices } from '../../app.js';
import { registerRecurringJob } from '../../platform/jobs/jobs.js';
import { rooms } from '../../platform/realtime/rooms.js';
import { makeDueInvoices } from './invoices.service.js';

/** `company-{id}-payment` with action CONCLUIDA (spec part 2 §7) reaches the company's admins (their billing room, kept while overdue). */
export function subscribeInvoiceEvents(services: AppServices): void {
  services.events.on('payment.concluded', ({ companyId, payload }) => {
    services.publisher.toRooms(companyId, [rooms.billing(companyId)], 'payment', payload);
  });
  registerInvoiceJob(services);
}

/** The invoice job runs this often; it is idempotent, so "daily" is met with room to spare after downtime. */
const INVOICE_RUN_SECONDS = 3600;

/** The billing job makes due invoices; several nodes or a double run make no second invoice (one per company and due date). */
function registerInvoiceJob(services: AppServices): void {
  registerRecurringJob(services.jobs, {
    name: 'billing.invoices',
    everySeconds: () => INVOICE_RUN_SECONDS,
    options: { retryLimit: 3, retryDelay: 60, expireInSeconds: 600 },
    run: () => makeDueInvoices(services),
    logger: pino({ level: services.config.LOG_LEVEL, base: { module: 'billing' } }),
  });
}
