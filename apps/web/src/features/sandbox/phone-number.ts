/** What the simulated phone accepts as a customer number: 8 to 15 digits (E.164 without the +). */
export function normalizePhoneNumber(raw: string): string {
  return raw.replace(/\D/g, '');
}

export function isValidPhoneNumber(raw: string): boolean {
  return /^\d{8,15}$/.test(normalizePhoneNumber(raw));
}

export interface SandboxCustomer {
  number: string;
  name: string;
}

/** Customers played recently on this browser, newest first, one entry per number. */
export function rememberCustomer(list: readonly SandboxCustomer[], customer: SandboxCustomer, max = 8): SandboxCustomer[] {
  return [customer, ...list.filter((c) => c.number !== customer.number)].slice(0, max);
}

/** A contact card as WhatsApp shares it (vCard 3.0 with the WhatsApp id). */
export function vcardFor(name: string, number: string): string {
  return ['BEGIN:VCARD', 'VERSION:3.0', `FN:${name}`, `TEL;type=CELL;waid=${number}:+${number}`, 'END:VCARD'].join('\n');
}
