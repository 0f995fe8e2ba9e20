import { toCsv, UTF8_BOM } from './csv-writer';

export interface ExportedContact {
  name: string;
  number: string;
  email: string | null;
}

/** Spec part 1 §2 and part 2 §9: contatos.csv, `;` separated, columns name, number, email. */
export const CONTACTS_CSV_NAME = 'contatos.csv';

export function contactsCsv(contacts: readonly ExportedContact[]): string {
  const rows = [['name', 'number', 'email'], ...contacts.map((c) => [c.name, c.number, c.email ?? ''])];
  return `${UTF8_BOM}${toCsv(rows, ';')}\r\n`;
}
