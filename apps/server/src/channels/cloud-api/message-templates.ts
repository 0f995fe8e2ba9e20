import type { GraphTemplate } from './graph-api.client.js';

/** The text of a template's BODY component ('' when it has none). */
export function templateBodyText(template: GraphTemplate): string {
  return template.components?.find((component) => component.type.toUpperCase() === 'BODY')?.text ?? '';
}

/** How many `{{n}}` parameters the template's body takes. */
export function templateParameterCount(text: string): number {
  const numbers = [...text.matchAll(/\{\{\s*(\d+)\s*\}\}/g)].map((match) => Number(match[1]));
  return numbers.length === 0 ? 0 : Math.max(...numbers);
}

/** The body with its `{{n}}` replaced by the parameters (a missing one stays as written). */
export function renderTemplate(text: string, parameters: string[]): string {
  return text.replace(/\{\{\s*(\d+)\s*\}\}/g, (whole, n: string) => parameters[Number(n) - 1] ?? whole);
}
