import { parentPort, workerData } from 'node:worker_threads';
import { SheetLimitError, type SheetLimit, type SheetRow, type SheetTableResult } from './sheet-table.js';
import { readXlsTable } from './xls.js';
import { readXlsxTable } from './xlsx.js';

/**
 * The worker thread that reads one uploaded workbook (started by `index.ts`,
 * which terminates it at its deadline): the server's event loop only receives
 * the rows, in batches.
 */

export interface SheetReaderRequest {
  data: Uint8Array;
  maxRows: number;
  maxInflatedBytes: number;
}

export type SheetReaderMessage =
  | { kind: 'rows'; rows: SheetRow[] }
  | { kind: 'done'; titles: string[] }
  | { kind: 'failed'; reason: 'invalid' | SheetLimit; message: string };

/**
 * Rows per message: the main thread takes a batch in about a millisecond. The
 * next batch is sent when the main thread asks for it: a port's waiting
 * messages are all delivered in one turn of the event loop, so sending every
 * batch at once would hand it the whole table in one go.
 */
const BATCH = 500;

const OLE_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

/** `.xls` or `.xlsx`, told apart by content, not by file name. */
async function readTable(request: SheetReaderRequest): Promise<SheetTableResult> {
  const data = Buffer.from(request.data.buffer, request.data.byteOffset, request.data.byteLength);
  if (data.subarray(0, 8).equals(OLE_MAGIC)) return readXlsTable(data, request.maxRows);
  return readXlsxTable(data, { maxRows: request.maxRows, budget: { left: request.maxInflatedBytes } });
}

const port = parentPort;
if (port) {
  const send = (message: SheetReaderMessage) => port.postMessage(message);
  const asked = () => new Promise((resolve) => port.once('message', resolve));
  try {
    const table = await readTable(workerData as SheetReaderRequest);
    for (let i = 0; i < table.rows.length; i += BATCH) {
      send({ kind: 'rows', rows: table.rows.slice(i, i + BATCH) });
      await asked();
    }
    send({ kind: 'done', titles: table.titles });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    send({ kind: 'failed', reason: error instanceof SheetLimitError ? error.limit : 'invalid', message });
  }
}
