import { describe, expect, it } from 'vitest';
import { contactsCsv } from './contacts-export';
import { csvField, toCsv, UTF8_BOM } from './csv-writer';

/** A small RFC 4180 reader, so the tests check what a spreadsheet app would read back. */
function parseCsv(text: string, separator = ';'): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 1;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === separator) {
      row.push(field);
      field = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
      i += 1;
    } else field += char;
  }
  if (field || row.length) {
    row.push(field);
    rows.push(row);
  }
  return rows;
}

describe('csv writer', () => {
  it('leaves plain values as they are', () => {
    expect(toCsv([['Maria', '5511999998888', 'maria@example.com']])).toBe('Maria;5511999998888;maria@example.com');
  });

  it('quotes a value holding the separator, a quote or a line break', () => {
    expect(csvField('Silva; Maria')).toBe('"Silva; Maria"');
    expect(csvField('Maria "Mari" Silva')).toBe('"Maria ""Mari"" Silva"');
    expect(csvField('line 1\nline 2')).toBe('"line 1\nline 2"');
    expect(csvField('a\r\nb')).toBe('"a\r\nb"');
    // A comma is not this file's separator.
    expect(csvField('Silva, Maria')).toBe('Silva, Maria');
    expect(csvField('Silva, Maria', ',')).toBe('"Silva, Maria"');
  });

  it('round-trips awkward values through an RFC 4180 reader', () => {
    const rows = [
      ['name', 'number', 'email'],
      ['José; "Zé"', '5511988887777', ''],
      ['Ana\nPaula', '551133334444', 'ana@exemplo.com'],
      ['', '', ''],
    ];
    expect(parseCsv(toCsv(rows))).toEqual(rows);
  });

  it('writes empty cells for null and undefined, numbers as digits', () => {
    expect(toCsv([[null, undefined, 42]])).toBe(';;42');
  });

  it('keeps a value that starts like a formula as text', () => {
    expect(csvField('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
    expect(csvField('+5511')).toBe("'+5511");
    expect(csvField('@maria')).toBe("'@maria");
    expect(csvField(-5)).toBe('-5');
  });
});

describe('contacts export', () => {
  it('starts with a UTF-8 BOM and the header name;number;email', () => {
    const text = contactsCsv([{ name: 'João Ñandú', number: '5511999998888', email: null }]);
    expect(text.startsWith(UTF8_BOM)).toBe(true);
    expect(parseCsv(text.slice(1))).toEqual([
      ['name', 'number', 'email'],
      ['João Ñandú', '5511999998888', ''],
    ]);
  });
});
