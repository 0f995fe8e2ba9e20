import { describe, expect, it } from 'vitest';
import { allowedBlockMs, longestEventLoopBlock } from '../../test/event-loop.js';
import { buildXls } from '../../test/xls.js';
import { buildXlsx, buildXlsxBomb } from '../../test/xlsx.js';
import { readSpreadsheet } from './index.js';
import { MAX_COLUMNS } from './sheet-table.js';

/**
 * The bounds of the spreadsheet reader (a worker thread): the row cap stops the
 * reading, inflated bytes and time are capped, and the event loop stays free
 * while a large workbook is read.
 */

function* contactRows(count: number): Generator<(string | number)[]> {
  yield ['nome', 'numero'];
  for (let i = 0; i < count; i += 1) yield [`Pessoa ${i}`, 5511900000000 + i];
}

// 300,000 rows: 5 MB of .xlsx whose sheet inflates to 29 MB and its shared strings to 15 MB.
const big = buildXlsx(contactRows(300_000));

describe('readSpreadsheet limits', () => {
  it('stops a 300,000-row .xlsx at the first row past the cap, without inflating the rest of the sheet', async () => {
    // 8 MiB cover the sheet's first 20,001 rows (2 MB) and their strings (1 MB), neither the whole sheet
    // nor the whole shared strings table: a reader that went on would answer tooLarge.
    await expect(readSpreadsheet(big, { maxRows: 20_000, maxInflatedBytes: 8 * 1024 * 1024 })).rejects.toMatchObject({ reason: 'tooManyRows' });
    const { rows } = await readSpreadsheet(buildXlsx(contactRows(20_000)), { maxRows: 20_000 });
    expect(rows).toHaveLength(20_000);
    expect(rows.at(-1)).toEqual({ line: 20_001, cells: ['Pessoa 19999', '5511900019999'] });
  });

  it('reads all of a 100,000-row sheet off the event loop: it is never held long (allowedBlockMs), the rows included', async () => {
    const data = buildXlsx(contactRows(100_000));
    // The deadline is not what this test is about: a busy machine may take longer than 10 s.
    const { result, longestBlockMs, elapsedMs } = await longestEventLoopBlock(() => readSpreadsheet(data, { maxRows: 1_000_000, timeoutMs: 50_000 }));
    expect(result.titles).toEqual(['nome', 'numero']);
    expect(result.rows).toHaveLength(100_000);
    expect(longestBlockMs).toBeLessThan(allowedBlockMs(elapsedMs));
  }, 60_000);

  it('answers timeout when the reading outlasts its deadline', async () => {
    await expect(readSpreadsheet(big, { maxRows: 1_000_000, timeoutMs: 20 })).rejects.toMatchObject({ reason: 'timeout' });
  });

  it('stops zip bombs (a sheet or a shared strings table of 512 MiB in 0.5 MB) at the inflated-bytes budget', async () => {
    for (const part of ['sheet', 'sharedStrings'] as const) {
      const bomb = buildXlsxBomb(part, 512);
      expect(bomb.length).toBeLessThan(1024 * 1024);
      // The deadline is not what this test is about: a busy machine may take longer than 10 s to inflate the budget.
      await expect(readSpreadsheet(bomb, { maxRows: 20_000, timeoutMs: 60_000 }), part).rejects.toMatchObject({ reason: 'tooLarge' });
    }
  }, 150_000);

  it('counts only non-blank rows below the titles, in both formats (blank shared strings included)', async () => {
    const rows = [['nome', 'numero'], ['Ana', 1], ['   ', ''], ['', ''], ['Bia', 2], ['Caio', 3]];
    for (const [format, data] of [
      ['xlsx', buildXlsx(rows)],
      ['xls', buildXls(rows)],
    ] as const) {
      const table = await readSpreadsheet(data, { maxRows: 3 });
      expect(table.rows.map((row) => row.line), format).toEqual([2, 5, 6]);
      await expect(readSpreadsheet(data, { maxRows: 2 }), format).rejects.toMatchObject({ reason: 'tooManyRows' });
    }
  });

  it(`reads at most ${MAX_COLUMNS} columns, and a quarter of a million distinct texts`, async () => {
    const wide = (row: number) => Array.from({ length: 300 }, (_, column) => `r${row}c${column}`);
    const { titles, rows } = await readSpreadsheet(buildXlsx(Array.from({ length: 1001 }, (_, row) => wide(row))), { maxRows: 1000, timeoutMs: 60_000 });
    expect(titles).toHaveLength(MAX_COLUMNS);
    expect(rows).toHaveLength(1000);
    expect(rows.at(-1)?.cells).toHaveLength(MAX_COLUMNS);
    expect(rows.at(-1)?.cells.at(-1)).toBe(`r1000c${MAX_COLUMNS - 1}`);
  }, 90_000);
});
