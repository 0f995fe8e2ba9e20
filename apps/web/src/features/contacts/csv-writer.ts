/** A cell of a CSV file: text, a number, or nothing. */
export type CsvValue = string | number | null | undefined;

/**
 * A cell that a spreadsheet app would run as a formula. Contact names come from
 * customers' WhatsApp profiles, so a name like `=HYPERLINK(...)` must stay text.
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** One field, quoted when it holds the separator, a quote or a line break (RFC 4180). */
export function csvField(value: CsvValue, separator = ';'): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  const needsQuotes = text.includes(separator) || text.includes('"') || text.includes('\n') || text.includes('\r');
  return needsQuotes ? `"${text.replace(/"/g, '""')}"` : text;
}

/** Rows joined with CRLF, the line end spreadsheet apps expect. */
export function toCsv(rows: readonly (readonly CsvValue[])[], separator = ';'): string {
  return rows.map((row) => row.map((value) => csvField(value, separator)).join(separator)).join('\r\n');
}

/**
 * A UTF-8 byte order mark: without it Excel reads the file as the system's
 * legacy code page and shows "JoÃ£o" for "João".
 */
export const UTF8_BOM = '\uFEFF';

/** Offers text as a file download in the browser. */
export function downloadTextFile(fileName: string, text: string, mimeType: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: mimeType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers start the download after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}
