import { constants, crc32, deflateRawSync } from 'node:zlib';

/**
 * Minimal `.xlsx` packages written directly (zip + SpreadsheetML), fast enough
 * for sheets of hundreds of thousands of rows, and zip bombs: parts whose
 * deflate stream repeats one block, so a few MB inflate to gigabytes.
 */

interface Part {
  name: string;
  deflated: Buffer;
  /** Inflated size and CRC-32, as the zip headers declare them (a bomb declares what it likes). */
  size: number;
  crc: number;
}

function textPart(name: string, text: string, level = 1): Part {
  const raw = Buffer.from(text, 'utf8');
  return { name, deflated: deflateRawSync(raw, { level }), size: raw.length, crc: crc32(raw) };
}

/** `prefix`, then `piece` `times` times, then `suffix`, deflated without ever holding the whole text. */
function repeatedPart(name: string, prefix: string, piece: string, times: number, suffix: string): Part {
  // Each piece is flushed to a byte boundary, so a non-final block can be repeated as is: its
  // back-references only reach into the piece itself.
  const flush = { finishFlush: constants.Z_SYNC_FLUSH };
  const head = deflateRawSync(Buffer.from(prefix), flush);
  const block = deflateRawSync(Buffer.from(piece), flush);
  const tail = deflateRawSync(Buffer.from(suffix));
  const deflated = Buffer.concat([head, ...Array.from({ length: times }, () => block), tail]);
  const size = Buffer.byteLength(prefix) + Buffer.byteLength(piece) * times + Buffer.byteLength(suffix);
  return { name, deflated, size: Math.min(size, 0xffffffff), crc: 0 };
}

function zip(parts: Part[]): Buffer {
  const chunks: Buffer[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const part of parts) {
    const name = Buffer.from(part.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(part.crc, 14);
    local.writeUInt32LE(part.deflated.length, 18);
    local.writeUInt32LE(part.size, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(8, 10);
    central.writeUInt32LE(part.crc, 16);
    central.writeUInt32LE(part.deflated.length, 20);
    central.writeUInt32LE(part.size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    chunks.push(local, name, part.deflated);
    directory.push(central, name);
    offset += local.length + name.length + part.deflated.length;
  }
  const directorySize = directory.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
}

const MAIN = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
const RELATIONSHIPS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const SHEET_OPEN = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<worksheet xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheetData>`;
const SHEET_CLOSE = '</sheetData></worksheet>';
const STRINGS_OPEN = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<sst xmlns="${MAIN}">`;

function packageParts(sheet: Part, sharedStrings?: Part): Part[] {
  return [
    textPart(
      '[Content_Types].xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/><Override PartName="/xl/worksheets/sheet1.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/><Override PartName="/xl/sharedStrings.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sharedStrings+xml"/></Types>`,
    ),
    textPart(
      '_rels/.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    textPart(
      'xl/workbook.xml',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<workbook xmlns="${MAIN}" xmlns:r="${RELATIONSHIPS}"><sheets><sheet name="Contatos" sheetId="1" r:id="rId1"/></sheets></workbook>`,
    ),
    textPart(
      'xl/_rels/workbook.xml.rels',
      `<?xml version="1.0" encoding="UTF-8" standalone="yes"?>\n<Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="${RELATIONSHIPS}/worksheet" Target="worksheets/sheet1.xml"/><Relationship Id="rId2" Type="${RELATIONSHIPS}/sharedStrings" Target="sharedStrings.xml"/></Relationships>`,
    ),
    // Excel writes the sheets before the shared strings table.
    sheet,
    ...(sharedStrings ? [sharedStrings] : []),
  ];
}

const escape = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

function columnName(index: number): string {
  let name = '';
  for (let n = index + 1; n > 0; n = Math.floor((n - 1) / 26)) name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}

/**
 * A workbook with one sheet of these rows: text through the shared strings
 * table (as Excel writes it), numbers as numbers. `rows` may be a generator.
 * Deflate `level` 1 by default (fast); 9 makes the smallest file.
 */
export function buildXlsx(rows: Iterable<(string | number)[]>, options: { level?: number } = {}): Buffer {
  const strings = new Map<string, number>();
  const sheet: string[] = [SHEET_OPEN];
  const columns: string[] = [];
  let r = 0;
  for (const row of rows) {
    r += 1;
    let cells = '';
    for (let c = 0; c < row.length; c += 1) {
      const value = row[c]!;
      const ref = (columns[c] ??= columnName(c)) + r;
      if (typeof value === 'number') {
        cells += `<c r="${ref}"><v>${value}</v></c>`;
        continue;
      }
      let index = strings.get(value);
      if (index === undefined) strings.set(value, (index = strings.size));
      cells += `<c r="${ref}" t="s"><v>${index}</v></c>`;
    }
    sheet.push(`<row r="${r}">${cells}</row>`);
  }
  sheet.push(SHEET_CLOSE);
  const table = [`${STRINGS_OPEN.slice(0, -1)} count="${strings.size}" uniqueCount="${strings.size}">`];
  for (const text of strings.keys()) table.push(`<si><t xml:space="preserve">${escape(text)}</t></si>`);
  table.push('</sst>');
  const level = options.level ?? 1;
  return zip(packageParts(textPart('xl/worksheets/sheet1.xml', sheet.join(''), level), textPart('xl/sharedStrings.xml', table.join(''), level)));
}

/** A workbook whose sheet (`part: 'sheet'`) or shared strings table inflates to about `inflatedMiB` MiB of blank space. */
export function buildXlsxBomb(part: 'sheet' | 'sharedStrings', inflatedMiB: number): Buffer {
  const blank = ' '.repeat(1024 * 1024);
  const title = '<row r="1"><c r="A1" t="inlineStr"><is><t>nome</t></is></c></row>';
  if (part === 'sheet') return zip(packageParts(repeatedPart('xl/worksheets/sheet1.xml', SHEET_OPEN + title, blank, inflatedMiB, SHEET_CLOSE)));
  const sheet = textPart('xl/worksheets/sheet1.xml', `${SHEET_OPEN}${title}<row r="2"><c r="A2" t="s"><v>0</v></c></row>${SHEET_CLOSE}`);
  return zip(packageParts(sheet, repeatedPart('xl/sharedStrings.xml', `${STRINGS_OPEN}<si><t>`, blank, inflatedMiB, '</t></si></sst>')));
}
