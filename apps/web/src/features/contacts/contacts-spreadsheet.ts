/** One spreadsheet row as `POST /contacts/upload` takes it: values keyed by column title. */
export type ContactUploadRow = Record<string, string | null>;

/** A cell as a spreadsheet reader gives it: text, number, boolean, Date or empty. */
type Cell = unknown;

/** The server's limits per row (`ContactUploadRow` in @atende/shared). */
const MAX_TITLE = 100;
const MAX_VALUE = 500;

/** Spec part 1 §5: contact import accepts .xlsx only. */
export function isXlsxFile(file: { name: string }): boolean {
  return /\.xlsx$/i.test(file.name.trim());
}

function cellText(cell: Cell): string | null {
  if (cell instanceof Date) return Number.isNaN(cell.getTime()) ? null : cell.toISOString().slice(0, 10);
  // A phone number typed into a number cell: 5511999998888, never 5.511999998888e+12.
  if (typeof cell === 'number') return Number.isInteger(cell) ? cell.toLocaleString('en-US', { useGrouping: false }) : String(cell);
  if (typeof cell === 'boolean') return String(cell);
  if (typeof cell !== 'string') return null;
  const text = cell.trim();
  return text === '' ? null : text.slice(0, MAX_VALUE);
}

/**
 * A sheet (first row: column titles) as row objects keyed by title. Columns
 * without a title and rows without any value are dropped; the server decides
 * which titles it understands (name, number, email).
 */
export function sheetToRows(sheet: readonly (readonly Cell[])[]): ContactUploadRow[] {
  const [header, ...body] = sheet;
  if (!header) return [];
  const titles = header.map((cell) => cellText(cell)?.slice(0, MAX_TITLE) ?? null);
  const rows: ContactUploadRow[] = [];
  for (const cells of body) {
    const row: ContactUploadRow = {};
    let filled = false;
    titles.forEach((title, index) => {
      if (!title) return;
      const value = cellText(cells[index]);
      if (value !== null) filled = true;
      row[title] = value;
    });
    if (filled) rows.push(row);
  }
  return rows;
}

/** Uploads go in batches so a large sheet stays under the request limits and shows progress. */
export function inBatches<T>(items: readonly T[], size: number): T[][] {
  const batches: T[][] = [];
  for (let i = 0; i < items.length; i += size) batches.push(items.slice(i, i + size));
  return batches;
}
