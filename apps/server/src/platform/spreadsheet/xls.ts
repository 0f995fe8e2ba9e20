import CFB from 'cfb';
import { SheetTable, type SheetTableResult } from './sheet-table.js';

/**
 * Reads the first worksheet of a legacy Excel 97–2003 workbook (`.xls`, BIFF8
 * records in the `Workbook` stream of an OLE compound file) as column titles
 * and non-blank rows, stopping at the first row past `maxRows`. Only what a
 * contact import needs is decoded: shared strings, inline strings, numbers
 * (plain and RK-packed), booleans and formula results. Anything else (BIFF5
 * and older, encrypted workbooks) throws. The container is not compressed, so
 * the work is bounded by the upload's size (and BIFF8's 65,536 rows).
 */
export function readXlsTable(data: Buffer, maxRows: number): SheetTableResult {
  const container = CFB.read(data, { type: 'buffer' });
  const entry = CFB.find(container, 'Workbook');
  if (!entry?.content || entry.content.length === 0) throw new Error('No BIFF8 workbook stream');
  const stream = Buffer.from(entry.content as Uint8Array);
  const globals = readGlobals(readRecords(stream, 0));
  if (globals.firstSheetOffset < 0) throw new Error('First worksheet not found');
  const table = new SheetTable(maxRows);
  readSheetCells(readRecords(stream, globals.firstSheetOffset), globals.strings, table);
  return table.finish((text) => text);
}

const BOF = 0x0809;
const EOF = 0x000a;
const CONTINUE = 0x003c;
const FILEPASS = 0x002f;
const BOUNDSHEET = 0x0085;
const SST = 0x00fc;
const LABELSST = 0x00fd;
const LABEL = 0x0204;
const NUMBER = 0x0203;
const RK = 0x027e;
const MULRK = 0x00bd;
const BOOLERR = 0x0205;
const FORMULA = 0x0006;
const STRING = 0x0207;

interface BiffRecord {
  type: number;
  offset: number;
  data: Buffer;
  /** The CONTINUE records that follow, kept apart: a string split across them restarts with a flags byte. */
  continues: Buffer[];
}

/** The records from `offset` on, one at a time (with their CONTINUE records), so a reader that stops early reads no further. */
function* readRecords(stream: Buffer, offset: number): Generator<BiffRecord> {
  let pending: BiffRecord | null = null;
  while (offset + 4 <= stream.length) {
    const type = stream.readUInt16LE(offset);
    const length = stream.readUInt16LE(offset + 2);
    const end = offset + 4 + length;
    if (end > stream.length) throw new Error('Truncated BIFF record');
    const data = stream.subarray(offset + 4, end);
    if (type === CONTINUE && pending) pending.continues.push(data);
    else {
      if (pending) yield pending;
      pending = { type, offset, data, continues: [] };
    }
    offset = end;
  }
  if (pending) yield pending;
}

function readGlobals(records: Iterable<BiffRecord>): { strings: string[]; firstSheetOffset: number } {
  let strings: string[] = [];
  let firstSheetOffset = -1;
  let first = true;
  for (const record of records) {
    if (first && (record.type !== BOF || record.data.readUInt16LE(0) !== 0x0600)) throw new Error('Not a BIFF8 workbook');
    if (first) {
      first = false;
      continue;
    }
    if (record.type === FILEPASS) throw new Error('Encrypted workbook');
    if (record.type === BOUNDSHEET && firstSheetOffset < 0 && record.data[5] === 0) firstSheetOffset = record.data.readUInt32LE(0);
    if (record.type === SST) strings = readSharedStrings(record);
    if (record.type === EOF) break;
  }
  if (first) throw new Error('Not a BIFF8 workbook');
  return { strings, firstSheetOffset };
}

/** A cursor over a record's data and its CONTINUE records. */
class Cursor {
  private part = 0;
  private position = 0;
  constructor(private readonly parts: Buffer[]) {}

  private get buffer(): Buffer {
    return this.parts[this.part] ?? Buffer.alloc(0);
  }

  /** Moves to the next CONTINUE record when the current one is used up. */
  private ensure(): void {
    while (this.position >= this.buffer.length && this.part < this.parts.length - 1) {
      this.part += 1;
      this.position = 0;
    }
  }

  bytes(count: number): Buffer {
    const chunks: Buffer[] = [];
    let left = count;
    while (left > 0) {
      this.ensure();
      const take = Math.min(left, this.buffer.length - this.position);
      if (take <= 0) throw new Error('Truncated BIFF string');
      chunks.push(this.buffer.subarray(this.position, this.position + take));
      this.position += take;
      left -= take;
    }
    return Buffer.concat(chunks);
  }

  u8(): number {
    return this.bytes(1)[0]!;
  }

  u16(): number {
    return this.bytes(2).readUInt16LE(0);
  }

  u32(): number {
    return this.bytes(4).readUInt32LE(0);
  }

  /**
   * Characters of a string; when they run into a CONTINUE record, that record
   * starts with a new flags byte saying whether the rest is 8- or 16-bit.
   */
  characters(count: number, wide: boolean): string {
    let text = '';
    let left = count;
    let highByte = wide;
    while (left > 0) {
      this.ensure();
      if (this.position >= this.buffer.length) throw new Error('Truncated BIFF string');
      const size = highByte ? 2 : 1;
      const available = Math.floor((this.buffer.length - this.position) / size);
      const take = Math.min(left, available);
      const slice = this.buffer.subarray(this.position, this.position + take * size);
      text += highByte ? slice.toString('utf16le') : slice.toString('latin1');
      this.position += take * size;
      left -= take;
      if (left > 0) {
        this.part += 1;
        this.position = 0;
        if (this.part >= this.parts.length) throw new Error('Truncated BIFF string');
        highByte = (this.u8() & 0x01) === 1;
      }
    }
    return text;
  }
}

/** An XLUnicodeRichExtendedString (shared strings table entry). */
function readRichString(cursor: Cursor): string {
  const length = cursor.u16();
  const flags = cursor.u8();
  const runs = flags & 0x08 ? cursor.u16() : 0;
  const extension = flags & 0x04 ? cursor.u32() : 0;
  const text = cursor.characters(length, (flags & 0x01) === 1);
  if (runs) cursor.bytes(runs * 4);
  if (extension) cursor.bytes(extension);
  return text;
}

function readSharedStrings(record: BiffRecord): string[] {
  const cursor = new Cursor([record.data, ...record.continues]);
  cursor.u32();
  const unique = cursor.u32();
  const strings: string[] = [];
  for (let i = 0; i < unique; i += 1) strings.push(readRichString(cursor));
  return strings;
}

/** An XLUnicodeString (LABEL, STRING records). */
function readShortString(record: BiffRecord, offset: number): string {
  const cursor = new Cursor([record.data.subarray(offset), ...record.continues]);
  const length = cursor.u16();
  const flags = cursor.u8();
  return cursor.characters(length, (flags & 0x01) === 1);
}

/** An RK value: a 30-bit integer or the top 30 bits of a double, optionally divided by 100. */
function decodeRk(rk: number): number {
  let value: number;
  if (rk & 0x02) value = rk >> 2;
  else {
    const bytes = Buffer.alloc(8);
    bytes.writeUInt32LE((rk & 0xfffffffc) >>> 0, 4);
    value = bytes.readDoubleLE(0);
  }
  return rk & 0x01 ? value / 100 : value;
}

/** Whole numbers without exponent or decimals (phone numbers are often typed as numbers). */
function numberText(value: number): string {
  if (Number.isInteger(value)) return BigInt(value).toString();
  return String(value);
}

/** The worksheet substream from its BOF record to its EOF. */
function readSheetCells(records: Iterable<BiffRecord>, strings: string[], table: SheetTable): void {
  const put = (row: number, column: number, text: string) => table.put(row, column, text);
  let pendingFormula: { row: number; column: number } | null = null;
  let first = true;
  for (const record of records) {
    const { data } = record;
    if (first) {
      if (record.type !== BOF) throw new Error('First worksheet not found');
      first = false;
      continue;
    }
    if (record.type === EOF) break;
    if (record.type === BOF) throw new Error('Nested BIFF substream');
    switch (record.type) {
      case LABELSST:
        put(data.readUInt16LE(0), data.readUInt16LE(2), strings[data.readUInt32LE(6)] ?? '');
        break;
      case LABEL:
        put(data.readUInt16LE(0), data.readUInt16LE(2), readShortString(record, 6));
        break;
      case NUMBER:
        put(data.readUInt16LE(0), data.readUInt16LE(2), numberText(data.readDoubleLE(6)));
        break;
      case RK:
        put(data.readUInt16LE(0), data.readUInt16LE(2), numberText(decodeRk(data.readInt32LE(6))));
        break;
      case MULRK: {
        const row = data.readUInt16LE(0);
        const first = data.readUInt16LE(2);
        const count = (data.length - 6) / 6;
        for (let k = 0; k < count; k += 1) put(row, first + k, numberText(decodeRk(data.readInt32LE(4 + k * 6 + 2))));
        break;
      }
      case BOOLERR:
        if (data[7] === 0) put(data.readUInt16LE(0), data.readUInt16LE(2), data[6] ? 'TRUE' : 'FALSE');
        break;
      case FORMULA: {
        const row = data.readUInt16LE(0);
        const column = data.readUInt16LE(2);
        if (data.readUInt16LE(12) !== 0xffff) put(row, column, numberText(data.readDoubleLE(6)));
        else if (data[6] === 0) pendingFormula = { row, column };
        else if (data[6] === 1) put(row, column, data[8] ? 'TRUE' : 'FALSE');
        break;
      }
      case STRING:
        if (pendingFormula) put(pendingFormula.row, pendingFormula.column, readShortString(record, 0));
        pendingFormula = null;
        break;
      default:
        break;
    }
  }
}
