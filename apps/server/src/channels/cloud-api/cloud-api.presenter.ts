import type { PresentedMessageTemplate, PresentedTicketWindow } from '@atende/shared';
import type { CustomerWindow } from './customer-window.js';
import type { GraphTemplate } from './graph-api.client.js';
import { templateBodyText, templateParameterCount } from './message-templates.js';

/** One of the WABA's message templates, as the composer lists it. */
export function presentTemplate(template: GraphTemplate): PresentedMessageTemplate {
  const text = templateBodyText(template);
  return {
    name: template.name,
    language: template.language,
    status: template.status,
    category: template.category ?? null,
    body: text,
    parameters: templateParameterCount(text),
  };
}

/** The ticket's 24-hour window: only Cloud API connections have one (`window` null: none applies). */
export function presentTicketWindow(window: CustomerWindow | null): PresentedTicketWindow {
  if (!window) return { required: false, open: true, expiresAt: null };
  return { required: true, open: window.open, expiresAt: window.expiresAt?.toISOString() ?? null };
}
