import { describe, expect, it } from 'vitest';
import { inBatches, isXlsxFile, sheetToRows } from './contacts-spreadsheet';

describe('contact spreadsheet rows', () => {
  it('keys each row by the header titles', () => {
    expect(
      sheetToRows([
        ['name', 'number', 'email'],
        ['Maria', '5511999998888', 'maria@exemplo.com'],
        ['José', '5511988887777', null],
      ]),
    ).toEqual([
      { name: 'Maria', number: '5511999998888', email: 'maria@exemplo.com' },
      { name: 'José', number: '5511988887777', email: null },
    ]);
  });

  it('writes a number typed into a numeric cell with all its digits', () => {
    expect(sheetToRows([['number'], [5511999998888]])).toEqual([{ number: '5511999998888' }]);
  });

  it('drops empty rows and columns without a title, trims values', () => {
    expect(
      sheetToRows([
        [' name ', null, 'number'],
        [null, 'ignored', null],
        ['  Ana  ', 'x', ' 551133334444 '],
        ['', null, ''],
      ]),
    ).toEqual([{ name: 'Ana', number: '551133334444' }]);
  });

  it('gives nothing for an empty sheet or a header only', () => {
    expect(sheetToRows([])).toEqual([]);
    expect(sheetToRows([['name', 'number']])).toEqual([]);
  });

  it('cuts values to the server limit instead of failing the whole upload', () => {
    const [row] = sheetToRows([['name'], ['x'.repeat(600)]]);
    expect(row?.name).toHaveLength(500);
  });

  it('turns dates and booleans into text', () => {
    expect(sheetToRows([['born', 'vip'], [new Date('2000-02-03T00:00:00Z'), true]])).toEqual([{ born: '2000-02-03', vip: 'true' }]);
  });
});

describe('import file check', () => {
  it('accepts .xlsx only', () => {
    expect(isXlsxFile({ name: 'contatos.xlsx' })).toBe(true);
    expect(isXlsxFile({ name: 'CONTATOS.XLSX' })).toBe(true);
    expect(isXlsxFile({ name: 'contatos.xls' })).toBe(false);
    expect(isXlsxFile({ name: 'contatos.csv' })).toBe(false);
    expect(isXlsxFile({ name: 'contatos.xlsx.exe' })).toBe(false);
  });
});

describe('batches', () => {
  it('splits in order without losing rows', () => {
    expect(inBatches([1, 2, 3, 4, 5], 2)).toEqual([[1, 2], [3, 4], [5]]);
    expect(inBatches([], 2)).toEqual([]);
  });
});
