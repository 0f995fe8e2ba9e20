// Writes public/contatos-modelo.xlsx, the template the contacts page offers for
// imports (spec part 1 §2: "a template spreadsheet is downloadable from the site
// root"). Vite copies public/ into dist/, which the server serves at /.
// Run again after changing the columns: node apps/web/scripts/make-contacts-template.mjs
import path from 'node:path';
import ExcelJS from 'exceljs';

const target = path.resolve(import.meta.dirname, '../public/contatos-modelo.xlsx');

const workbook = new ExcelJS.Workbook();
workbook.creator = 'Atende';
// A fixed date keeps the file byte-stable between runs, so git sees no change.
workbook.created = new Date('2024-01-01T00:00:00Z');
workbook.modified = workbook.created;

const sheet = workbook.addWorksheet('Contatos');
// The header row is what the import reads as column titles; the server matches name/number/email.
sheet.columns = [
  { header: 'name', key: 'name', width: 30 },
  { header: 'number', key: 'number', width: 20 },
  { header: 'email', key: 'email', width: 32 },
];
sheet.getRow(1).font = { bold: true };
// Text cells: a number typed as a number loses its leading zeros and shows as 5.5119E+12.
sheet.getColumn('number').numFmt = '@';
sheet.addRow({ name: 'Maria Silva', number: '5511999998888', email: 'maria@exemplo.com.br' });

await workbook.xlsx.writeFile(target);
console.log(`wrote ${target}`);
