import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { buildXls } from '../../test/xls.js';
import { readSpreadsheet } from './index.js';

/**
 * The spreadsheet reader behind list imports: `.xls` (BIFF8) files written by
 * another program (SheetJS, fixture) and by our builder (shared strings split
 * across CONTINUE records, 16-bit text), and `.xlsx` files, read alike.
 */

const fixture = (name: string) => readFileSync(new URL(`./fixtures/${name}`, import.meta.url));

/** The titles and the rows below them, as one list of rows (blank rows are skipped by the reader). */
async function readFirstSheetRows(data: Buffer, maxRows = 20_000): Promise<string[][]> {
  const { titles, rows } = await readSpreadsheet(data, { maxRows });
  return [titles, ...rows.map((row) => row.cells)];
}

describe('readFirstSheetRows', () => {
  it('reads the first worksheet of an .xls written by another program: text, accents, numbers as typed', async () => {
    expect(await readFirstSheetRows(fixture('sheetjs-biff8.xls'))).toEqual([
      ['Nome', 'Numero', 'Email'],
      ['Ana Souza', '5511999990001', 'ana@example.com'],
      ['Bruno Lima', '5511999990002', ''],
      ['Çécília Ñ', '5511999990003', 'CECI@EXAMPLE.COM'],
      ['bad row', '12', ''],
      ['Décimo', '12.5', ''],
    ]);
  });

  it('reads shared strings continued across records, wide characters included', async () => {
    const rows: (string | number)[][] = [['nome', 'número']];
    for (let i = 0; i < 3000; i += 1) rows.push([`Pessoa ${i} ${i % 7 === 0 ? 'Zoë 王' : 'Zoe'}`, 5511900000000 + i]);
    const read = await readFirstSheetRows(buildXls(rows));
    expect(read).toHaveLength(3001);
    expect(read).toEqual(rows.map((row) => row.map(String)));
  });

  it('reads .xlsx alike', async () => {
    const workbook = new ExcelJS.Workbook();
    workbook.addWorksheet('Contatos').addRows([['nome', 'numero'], ['Ana', 5511999990001]]);
    const data = Buffer.from(await workbook.xlsx.writeBuffer());
    expect(await readFirstSheetRows(data)).toEqual([['nome', 'numero'], ['Ana', '5511999990001']]);
  });

  it('refuses older and broken workbooks', async () => {
    const invalid = { reason: 'invalid' };
    await expect(readFirstSheetRows(fixture('sheetjs-biff5.xls'))).rejects.toMatchObject(invalid);
    const truncated = fixture('sheetjs-biff8.xls').subarray(0, 1500);
    await expect(readFirstSheetRows(truncated)).rejects.toMatchObject(invalid);
    await expect(readFirstSheetRows(Buffer.from('not a workbook'))).rejects.toMatchObject(invalid);
  });
});
