import CFB from 'cfb';

/** The largest record body BIFF8 allows; longer data goes on in CONTINUE records. */
const MAX_RECORD = 8224;

function record(type: number, data: Buffer): Buffer {
  const head = Buffer.alloc(4);
  head.writeUInt16LE(type, 0);
  head.writeUInt16LE(data.length, 2);
  return Buffer.concat([head, data]);
}

function bof(kind: number): Buffer {
  const data = Buffer.alloc(16);
  data.writeUInt16LE(0x0600, 0);
  data.writeUInt16LE(kind, 2);
  return record(0x0809, data);
}

/**
 * The shared strings table, split into CONTINUE records the way Excel does:
 * a string's header never splits, its characters may, and the continuation
 * starts with a flags byte.
 */
function sharedStrings(strings: string[]): Buffer {
  const parts: Buffer[] = [];
  let current: number[] = [];
  const head = Buffer.alloc(8);
  head.writeUInt32LE(strings.length, 0);
  head.writeUInt32LE(strings.length, 4);
  current.push(...head);
  const flush = () => {
    parts.push(record(parts.length === 0 ? 0x00fc : 0x003c, Buffer.from(current)));
    current = [];
  };
  for (const text of strings) {
    const wide = [...text].some((c) => c.charCodeAt(0) > 0xff);
    if (current.length + 3 > MAX_RECORD) flush();
    current.push(text.length & 0xff, text.length >> 8, wide ? 1 : 0);
    for (const char of text) {
      const size = wide ? 2 : 1;
      if (current.length + size > MAX_RECORD) {
        flush();
        current.push(wide ? 1 : 0);
      }
      const code = char.charCodeAt(0);
      if (wide) current.push(code & 0xff, code >> 8);
      else current.push(code);
    }
  }
  flush();
  return Buffer.concat(parts);
}

/**
 * A legacy `.xls` (BIFF8 in an OLE compound file) with one worksheet: strings
 * through the shared strings table, numbers as NUMBER records. Tests use it to
 * drive the `.xls` reader with tables too big for one record.
 */
export function buildXls(rows: (string | number)[][]): Buffer {
  const strings: string[] = [];
  const index = new Map<string, number>();
  const cells: Buffer[] = [];
  rows.forEach((row, r) =>
    row.forEach((value, c) => {
      if (typeof value === 'number') {
        const data = Buffer.alloc(14);
        data.writeUInt16LE(r, 0);
        data.writeUInt16LE(c, 2);
        data.writeDoubleLE(value, 6);
        cells.push(record(0x0203, data));
        return;
      }
      if (!index.has(value)) {
        index.set(value, strings.length);
        strings.push(value);
      }
      const data = Buffer.alloc(10);
      data.writeUInt16LE(r, 0);
      data.writeUInt16LE(c, 2);
      data.writeUInt32LE(index.get(value)!, 6);
      cells.push(record(0x00fd, data));
    }),
  );
  const name = Buffer.from('Sheet1', 'latin1');
  const sheetInfo = (offset: number) => {
    const data = Buffer.alloc(8 + name.length);
    data.writeUInt32LE(offset, 0);
    data[6] = name.length;
    name.copy(data, 8);
    return record(0x0085, data);
  };
  const eof = record(0x000a, Buffer.alloc(0));
  const before = Buffer.concat([bof(0x0005)]);
  const after = Buffer.concat([sharedStrings(strings), eof]);
  const sheetOffset = before.length + sheetInfo(0).length + after.length;
  const workbook = Buffer.concat([before, sheetInfo(sheetOffset), after, bof(0x0010), ...cells, eof]);
  const container = CFB.utils.cfb_new();
  CFB.utils.cfb_add(container, 'Workbook', workbook);
  return CFB.write(container, { type: 'buffer' }) as Buffer;
}
