import { SaxesParser, type SaxesTagPlain } from 'saxes';
import { MAX_CELL_TEXT, SheetLimitError, SheetTable, type SheetTableResult } from './sheet-table.js';
import { InvalidArchiveError, entryText, readZipDirectory, type InflateBudget, type ZipEntry } from './zip.js';

/**
 * Reads the first worksheet of an `.xlsx` (Office Open XML) workbook as a
 * stream of XML events over its inflated entries, stopping at the row cap: a
 * sheet of a million rows costs what its first `maxRows` cost.
 *
 * Shared strings are referenced by index from the sheet, and producers put the
 * table after the sheets in the archive (Excel does), so the sheet is read
 * first and then only the strings its kept rows use, up to the last one needed
 * (Excel numbers them in order of first use: the first rows' strings come
 * first). Whether a row is blank depends on its strings, so the sheet is read
 * counting every string as text; when the cap stopped it and some of the rows
 * it counted turn out blank, it is read again knowing which strings are blank
 * (a pass over the whole table). Cell texts follow what exceljs's `cell.text`
 * gave (numbers as JavaScript prints them, booleans `true`/`false`, formula
 * results).
 */
export async function readXlsxTable(data: Buffer, options: { maxRows: number; budget: InflateBudget }): Promise<SheetTableResult> {
  const entries = readZipDirectory(data);
  const parts = await locateParts(data, entries, options.budget);
  const first = await readWith(data, parts, options, null);
  if (!first.stoppedAtCap) return first.table;
  if (first.table.rows.length > options.maxRows) throw new SheetLimitError('tooManyRows', `More than ${options.maxRows} rows`);
  const blank = parts.sharedStrings ? await blankSharedStrings(data, parts.sharedStrings, options.budget) : new Set<number>();
  const exact = await readWith(data, parts, options, blank);
  if (exact.stoppedAtCap) throw new SheetLimitError('tooManyRows', `More than ${options.maxRows} rows`);
  return exact.table;
}

/**
 * One reading of the sheet and of the strings its rows use. With `blank` null,
 * every shared string counts as text, so the cap may stop the reading at rows
 * that resolve blank (`stoppedAtCap` with fewer rows than counted).
 */
async function readWith(
  data: Buffer,
  parts: { sheet: ZipEntry; sharedStrings?: ZipEntry },
  options: { maxRows: number; budget: InflateBudget },
  blank: Set<number> | null,
): Promise<{ table: SheetTableResult; stoppedAtCap: boolean }> {
  const table = new SheetTable<Cell>(options.maxRows, (cell) => (typeof cell === 'number' ? (blank?.has(cell) ?? false) : cell.trim() === ''));
  let stoppedAtCap = false;
  try {
    await readSheet(data, parts.sheet, table, options.budget);
  } catch (error) {
    if (!(error instanceof SheetLimitError && error.limit === 'tooManyRows')) throw error;
    stoppedAtCap = true;
  }
  const needed = new Set<number>();
  for (const cell of table.cells()) if (typeof cell === 'number') needed.add(cell);
  const strings = parts.sharedStrings && needed.size > 0 ? await neededSharedStrings(data, parts.sharedStrings, needed, options.budget) : new Map<number, string>();
  return { table: table.finish((cell) => (typeof cell === 'number' ? (strings.get(cell) ?? '') : cell)), stoppedAtCap };
}

/** A cell's text, or the index of its shared string. */
type Cell = string | number;

/** The part behind the first `<sheet>` of the workbook (the first tab), and the shared strings table. */
async function locateParts(data: Buffer, entries: Map<string, ZipEntry>, budget: InflateBudget): Promise<{ sheet: ZipEntry; sharedStrings?: ZipEntry }> {
  const workbook = entries.get('xl/workbook.xml');
  const relations = entries.get('xl/_rels/workbook.xml.rels');
  if (!workbook || !relations) throw new InvalidArchiveError('Not an Office Open XML workbook');
  let firstSheetId: string | undefined;
  await parse(data, workbook, budget, (parser, stop) => {
    parser.on('opentag', (tag) => {
      if (localName(tag.name) !== 'sheet') return;
      firstSheetId = Object.entries(tag.attributes).find(([name]) => name.endsWith(':id'))?.[1];
      stop();
    });
  });
  const targets = new Map<string, string>();
  let sharedStringsTarget: string | undefined;
  await parse(data, relations, budget, (parser) => {
    parser.on('opentag', (tag) => {
      if (localName(tag.name) !== 'Relationship') return;
      const { Id: id, Target: target, Type: type } = tag.attributes;
      if (!id || !target) return;
      targets.set(id, target);
      if (type?.endsWith('/sharedStrings')) sharedStringsTarget = target;
    });
  });
  const sheetTarget = firstSheetId ? targets.get(firstSheetId) : undefined;
  const sheet = sheetTarget ? entries.get(partName(sheetTarget)) : undefined;
  if (!sheet) throw new InvalidArchiveError('The workbook has no worksheet');
  return { sheet, sharedStrings: entries.get(partName(sharedStringsTarget ?? 'sharedStrings.xml')) };
}

/** A relationship target (relative to `xl/`, or absolute from the package root) as an entry name. */
function partName(target: string): string {
  const path = target.startsWith('/') ? target.slice(1) : `xl/${target}`;
  const parts: string[] = [];
  for (const part of path.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.' && part !== '') parts.push(part);
  }
  return parts.join('/').toLowerCase();
}

const localName = (name: string) => name.slice(name.indexOf(':') + 1);

class StopReading extends Error {}

/**
 * Feeds an entry's text to a SAX parser that `listen` sets up; `stop()` from a
 * handler ends the reading (nothing more of the entry is inflated).
 */
async function parse(data: Buffer, entry: ZipEntry, budget: InflateBudget, listen: (parser: SaxesParser, stop: () => void) => void): Promise<void> {
  const parser = new SaxesParser({ position: false });
  listen(parser, () => {
    throw new StopReading();
  });
  parser.on('error', (error) => {
    throw new InvalidArchiveError(`Broken XML in ${entry.name}: ${error.message}`);
  });
  try {
    for await (const text of entryText(data, entry, budget)) parser.write(text);
    parser.close();
  } catch (error) {
    if (!(error instanceof StopReading)) throw error;
  }
}

/** Collects the text of `<t>` elements (not phonetic runs, `<rPh>`), cut at Excel's cell limit. */
class TextCollector {
  private parts: string[] = [];
  private length = 0;
  private depth = 0;
  private phonetic = 0;

  open(name: string): void {
    if (name === 'rPh') this.phonetic += 1;
    if (name === 't' && this.phonetic === 0) this.depth += 1;
  }

  close(name: string): void {
    if (name === 'rPh') this.phonetic -= 1;
    if (name === 't' && this.depth > 0) this.depth -= 1;
  }

  text(text: string): void {
    if (this.depth === 0 || this.length >= MAX_CELL_TEXT) return;
    this.parts.push(text);
    this.length += text.length;
  }

  take(): string {
    const text = this.parts.join('').slice(0, MAX_CELL_TEXT);
    this.parts = [];
    this.length = 0;
    this.depth = 0;
    this.phonetic = 0;
    return text;
  }
}

/** Walks the `<si>` items of the shared strings table, handing each (index, text) to `each` until it stops. */
async function eachSharedString(data: Buffer, entry: ZipEntry, budget: InflateBudget, each: (index: number, text: string, stop: () => void) => void): Promise<void> {
  await parse(data, entry, budget, (parser, stop) => {
    const collector = new TextCollector();
    let index = 0;
    let inItem = false;
    parser.on('opentag', (tag) => {
      const name = localName(tag.name);
      if (name === 'si') inItem = true;
      else if (inItem) collector.open(name);
    });
    parser.on('text', (text) => collector.text(text));
    parser.on('cdata', (text) => collector.text(text));
    parser.on('closetag', (tag) => {
      const name = localName(tag.name);
      if (name !== 'si') return collector.close(name);
      inItem = false;
      each(index, collector.take(), stop);
      index += 1;
    });
  });
}

async function blankSharedStrings(data: Buffer, entry: ZipEntry, budget: InflateBudget): Promise<Set<number>> {
  const blank = new Set<number>();
  await eachSharedString(data, entry, budget, (index, text) => {
    if (text.trim() === '') blank.add(index);
  });
  return blank;
}

async function neededSharedStrings(data: Buffer, entry: ZipEntry, needed: Set<number>, budget: InflateBudget): Promise<Map<number, string>> {
  let last = 0;
  for (const index of needed) if (index > last) last = index;
  const strings = new Map<number, string>();
  await eachSharedString(data, entry, budget, (index, text, stop) => {
    if (needed.has(index)) strings.set(index, text);
    if (index >= last) stop();
  });
  return strings;
}

/** `B12` → column 1 (0-based); NaN without letters. */
function columnOf(reference: string): number {
  let column = 0;
  let letters = 0;
  for (const char of reference) {
    const code = char.charCodeAt(0);
    if (code < 65 || code > 90) break;
    column = column * 26 + (code - 64);
    letters += 1;
  }
  return letters > 0 ? column - 1 : Number.NaN;
}

function cellValue(type: string | undefined, value: string, inline: string): Cell | null {
  switch (type) {
    case 's': {
      // Number('') is 0: an empty reference is no reference.
      const index = value.trim() === '' ? Number.NaN : Number(value);
      return Number.isInteger(index) && index >= 0 ? index : null;
    }
    case 'inlineStr':
      return inline;
    case 'b':
      return value === '1' || value === 'true' ? 'true' : 'false';
    case 'str':
    case 'e':
    case 'd':
      return value;
    default: {
      if (value.trim() === '') return null;
      const number = Number(value);
      return Number.isNaN(number) ? value : String(number);
    }
  }
}

/** `<sheetData>`: `<row r>` of `<c r t>` holding `<v>` (or `<is>` for inline strings). */
async function readSheet(data: Buffer, entry: ZipEntry, table: SheetTable<Cell>, budget: InflateBudget): Promise<void> {
  await parse(data, entry, budget, (parser, stop) => {
    let row = -1;
    let column = -1;
    let cell: { type?: string; column: number } | null = null;
    let inValue = false;
    let value = '';
    let inInline = false;
    const inline = new TextCollector();
    const number = (text: string | undefined) => (text && /^\d+$/.test(text) ? Number(text) : Number.NaN);
    parser.on('opentag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'row') {
        const r = number(tag.attributes.r);
        row = Number.isNaN(r) ? row + 1 : r - 1;
        column = -1;
      } else if (name === 'c') {
        const c = columnOf(tag.attributes.r ?? '');
        column = Number.isNaN(c) ? column + 1 : c;
        cell = { type: tag.attributes.t, column };
        value = '';
      } else if (cell && name === 'v') inValue = true;
      else if (cell && name === 'is') inInline = true;
      else if (inInline) inline.open(name);
    });
    const onText = (text: string) => {
      if (inValue && value.length < MAX_CELL_TEXT) value += text;
      else if (inInline) inline.text(text);
    };
    parser.on('text', onText);
    parser.on('cdata', onText);
    parser.on('closetag', (tag: SaxesTagPlain) => {
      const name = localName(tag.name);
      if (name === 'v') inValue = false;
      else if (name === 'is') inInline = false;
      else if (inInline) inline.close(name);
      else if (name === 'c' && cell) {
        const text = cellValue(cell.type, value.slice(0, MAX_CELL_TEXT), inline.take());
        if (text !== null && row >= 0) table.put(row, cell.column, text);
        cell = null;
      } else if (name === 'sheetData') stop();
    });
  });
}
