import type { AutomationDeps } from './automation-runtime.js';
import { afterAgentChange } from './ticket-lifecycle.js';

/** What the automation answers in other areas' events. */
export function subscribeAutomationEvents(services: AutomationDeps): void {
  // Awaited by the agent's request (tickets.service.ts publishes it).
  services.events.on('ticket.changedByAgent', ({ ctx, previous, ticket }) => afterAgentChange(services, ctx, previous, ticket));
}
