import ExcelJS from 'exceljs';
import { readXlsRows } from './xls.js';

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/**
 * The first worksheet of an `.xlsx` (Office Open XML) or `.xls` (Excel 97–2003)
 * workbook as rows of cell texts, told apart by content, not by file name.
 * Throws on anything else.
 */
export async function readFirstSheetRows(data: Buffer): Promise<string[][]> {
  if (data.subarray(0, 8).equals(OLE_MAGIC)) return readXlsRows(data);
  const workbook = new ExcelJS.Workbook();
  await workbook.xlsx.load(data as unknown as ArrayBuffer);
  const sheet = workbook.worksheets[0];
  if (!sheet) throw new Error('The workbook has no worksheet');
  const rows: string[][] = [];
  sheet.eachRow((row, index) => {
    const cells: string[] = [];
    row.eachCell((c, column) => {
      cells[column - 1] = String(c.text ?? '');
    });
    rows[index - 1] = Array.from(cells, (text) => text ?? '');
  });
  return Array.from(rows, (row) => row ?? []);
}
