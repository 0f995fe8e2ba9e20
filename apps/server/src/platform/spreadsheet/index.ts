import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { SheetReaderMessage, SheetReaderRequest } from './sheet-reader.worker.js';
import type { SheetRow, SheetTableResult } from './sheet-table.js';

export type {  SheetTableResult } from './sheet-table.js';

/**
 * Reads an uploaded workbook (`.xlsx`, or legacy `.xls`) in a worker thread, so
 * the event loop never holds a parse: the worker streams the first sheet's rows
 * and stops at the row cap, an `.xlsx` may inflate only so many bytes (a zip
 * bomb stops there), the worker's heap is capped, and the reading is terminated
 * at its deadline. See docs/architecture.md, "Spreadsheet uploads".
 */

export interface ReadSpreadsheetOptions {
  /** The most non-blank rows below the first (titles) row; the first row past it stops the reading (`tooManyRows`). */
  maxRows: number;
  /** Wall time of the reading, from the start of its worker. */
  timeoutMs?: number;
  /** Bytes an `.xlsx`'s parts may inflate to, all passes together. */
  maxInflatedBytes?: number;
}

export type SpreadsheetFailure =
  /** Not a workbook we can read (or a broken one). */
  | 'invalid'
  /** More than `maxRows` rows: the reading stopped at the first row past the cap. */
  | 'tooManyRows'
  /** It inflates past `maxInflatedBytes`, or its reading outgrew the worker's heap. */
  | 'tooLarge'
  /** The reading did not finish in `timeoutMs`. */
  | 'timeout'
  /** Too many readings are waiting for a worker. */
  | 'busy';

export class SpreadsheetError extends Error {
  constructor(
    readonly reason: SpreadsheetFailure,
    message: string,
  ) {
    super(message);
  }
}

const SPREADSHEET_READ_TIMEOUT_MS = 10_000;
const SPREADSHEET_MAX_INFLATED_BYTES = 128 * 1024 * 1024;
/** The worker's heap: a legitimate 20,000-row sheet needs a few tens of MB. */
const WORKER_HEAP_MB = 256;
/** Readings at once (one core stays for the event loop); others wait their turn. */
const MAX_READERS = Math.max(1, availableParallelism() - 1);
/** Past this many waiting, an upload is answered "busy" instead of holding its file in memory in the queue. */
const MAX_WAITING = 8;

let running = 0;
const waiting: (() => void)[] = [];

async function takeTurn(): Promise<() => void> {
  if (running < MAX_READERS) running += 1;
  else if (waiting.length >= MAX_WAITING) throw new SpreadsheetError('busy', 'Too many spreadsheets are being read');
  else await new Promise<void>((resolve) => waiting.push(resolve));
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const next = waiting.shift();
    // The turn passes to the next reading as is (running stays counted).
    if (next) next();
    else running -= 1;
  };
}

const fromSources = import.meta.url.endsWith('.ts');

function startWorker(request: SheetReaderRequest): Worker {
  const options = {
    workerData: request,
    transferList: [request.data.buffer as ArrayBuffer],
    resourceLimits: { maxOldGenerationSizeMb: WORKER_HEAP_MB },
  };
  // The bundle (dist/main.js) has the worker beside it (build.mjs makes dist/sheet-reader.worker.js).
  if (!fromSources) return new Worker(new URL('./sheet-reader.worker.js', import.meta.url), options);
  // Tests and `npm run dev` run the TypeScript sources: the worker registers tsx before importing its entry.
  const tsx = import.meta.resolve('tsx/esm/api');
  const entry = new URL('./sheet-reader.worker.ts', import.meta.url).href;
  const bootstrap = `import(${JSON.stringify(tsx)}).then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { ...options, eval: true });
}

function readInWorker(data: Buffer, options: ReadSpreadsheetOptions): Promise<SheetTableResult> {
  // A copy the worker owns: an upload's buffer may share its memory with others (Buffer's pool).
  const copy = new Uint8Array(data);
  const worker = startWorker({ data: copy, maxRows: options.maxRows, maxInflatedBytes: options.maxInflatedBytes ?? SPREADSHEET_MAX_INFLATED_BYTES });
  const timeoutMs = options.timeoutMs ?? SPREADSHEET_READ_TIMEOUT_MS;
  return new Promise((resolve, reject) => {
    const rows: SheetRow[] = [];
    let settled = false;
    const settle = (outcome: { error: Error } | { table: SheetTableResult }) => {
      if (settled) return;
      settled = true;
      clearTimeout(deadline);
      void worker.terminate();
      if ('error' in outcome) reject(outcome.error);
      else resolve(outcome.table);
    };
    const deadline = setTimeout(() => settle({ error: new SpreadsheetError('timeout', `The spreadsheet was not read in ${timeoutMs} ms`) }), timeoutMs);
    worker.on('message', (message: SheetReaderMessage) => {
      if (settled) return;
      if (message.kind === 'rows') {
        for (const row of message.rows) rows.push(row);
        worker.postMessage('next');
      } else if (message.kind === 'done') settle({ table: { titles: message.titles, rows } });
      else settle({ error: new SpreadsheetError(message.reason, message.message) });
    });
    worker.on('error', (error: Error & { code?: string }) => {
      const outOfMemory = error.code === 'ERR_WORKER_OUT_OF_MEMORY';
      settle({ error: outOfMemory ? new SpreadsheetError('tooLarge', 'The spreadsheet outgrew the reader\'s memory') : error });
    });
    worker.on('exit', (code) => settle({ error: new Error(`The spreadsheet reader exited (code ${code}) without an answer`) }));
  });
}

/**
 * The first worksheet's titles (row 1) and its non-blank rows below, with their
 * line numbers. Throws SpreadsheetError for every reason the file is refused.
 */
export async function readSpreadsheet(data: Buffer, options: ReadSpreadsheetOptions): Promise<SheetTableResult> {
  const release = await takeTurn();
  try {
    return await readInWorker(data, options);
  } finally {
    release();
  }
}
