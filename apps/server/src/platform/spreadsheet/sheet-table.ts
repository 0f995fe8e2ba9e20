/**
 * What the readers of both formats fill: the first row's texts (column titles)
 * and the non-blank rows below it, with their line numbers. The row cap is
 * checked as cells arrive, so a reader stops at the first row past it instead of
 * reading the rest of the sheet.
 */

/** A row below the titles with at least one non-blank cell; `line` is its 1-based row number in the sheet. */
export interface SheetRow {
  line: number;
  cells: string[];
}

export interface SheetTableResult {
  titles: string[];
  rows: SheetRow[];
}

export type SheetLimit = 'tooManyRows' | 'tooLarge';

/** A limit the workbook went past; the reading stopped there. */
export class SheetLimitError extends Error {
  constructor(
    readonly limit: SheetLimit,
    message: string,
  ) {
    super(message);
  }
}

/** Excel 97–2003 had 256 columns; columns past it are not read in either format. */
export const MAX_COLUMNS = 256;
/** Excel's own limit for a cell's text; longer text is cut. */
export const MAX_CELL_TEXT = 32_767;

const isBlank = (text: string) => text.trim() === '';

/**
 * Cells of type `C`: text, or (for `.xlsx` shared strings, resolved once the
 * sheet is read) something whose blankness `blank` tells.
 */
export class SheetTable<C = string> {
  private readonly rows = new Map<number, C[]>();
  private readonly filled = new Set<number>();

  constructor(
    /** The most non-blank rows below the first one. */
    private readonly maxRows: number,
    private readonly blank: (cell: C) => boolean = (cell) => isBlank(cell as string),
  ) {}

  /**
   * A cell at 0-based `row` and `column`. Below the titles, a blank cell is kept
   * only in a row that already has a non-blank one: blank rows take no memory.
   */
  put(row: number, column: number, cell: C): void {
    if (column >= MAX_COLUMNS || row < 0 || column < 0) return;
    const blank = this.blank(cell);
    let cells = this.rows.get(row);
    if (!cells) {
      if (row > 0 && blank) return;
      this.rows.set(row, (cells = []));
    }
    cells[column] = cell;
    if (row === 0 || blank || this.filled.has(row)) return;
    this.filled.add(row);
    if (this.filled.size > this.maxRows) throw new SheetLimitError('tooManyRows', `More than ${this.maxRows} rows`);
  }

  /** Every cell, for a caller that resolves references before `finish`. */
  *cells(): Generator<C> {
    for (const cells of this.rows.values()) for (const cell of cells) if (cell !== undefined) yield cell;
  }

  finish(text: (cell: C) => string): SheetTableResult {
    const toTexts = (cells: C[]) => Array.from(cells, (cell) => (cell === undefined ? '' : text(cell)));
    const titles = toTexts(this.rows.get(0) ?? []);
    const rows = [...this.filled]
      .sort((a, b) => a - b)
      .map((row) => ({ line: row + 1, cells: toTexts(this.rows.get(row) ?? []) }))
      // A reference that resolves to nothing (a shared string the table lacks) leaves a row blank after all.
      .filter((row) => row.cells.some((cell) => !isBlank(cell)));
    return { titles, rows };
  }
}
