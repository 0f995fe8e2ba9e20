/** Where the progress line goes (stderr in the CLI; nothing in tests). */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return '?';
  const s = Math.max(0, Math.round(seconds));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

/**
 * A plain progress bar with an ETA over every row of every table: redrawn in place on a
 * terminal (at most 10 times a second), a line every 5 s otherwise (a log file).
 */
export class Progress {
  private done = 0;
  private readonly started = Date.now();
  private lastDraw = 0;
  private table = '';

  constructor(
    private readonly total: number,
    private readonly output: ProgressOutput | null,
    private readonly now: () => number = Date.now,
  ) {}

  start(table: string): void {
    this.table = table;
    this.draw(true);
  }

  advance(rows: number): void {
    this.done += rows;
    this.draw(false);
  }

  line(): string {
    const fraction = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const elapsed = (this.now() - this.started) / 1000;
    const rate = elapsed > 0 ? this.done / elapsed : 0;
    const eta = rate > 0 ? (this.total - this.done) / rate : Number.POSITIVE_INFINITY;
    const width = 30;
    const filled = Math.round(fraction * width);
    return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${(fraction * 100).toFixed(1).padStart(5)}% ${this.done}/${this.total} rows, ${Math.round(rate)}/s, ETA ${duration(eta)} (${this.table})`;
  }

  private draw(force: boolean): void {
    if (!this.output) return;
    const now = this.now();
    const interval = this.output.isTTY ? 100 : 5000;
    if (!force && now - this.lastDraw < interval) return;
    this.lastDraw = now;
    this.output.write(this.output.isTTY ? `\r${this.line()}\x1b[K` : `${this.line()}\n`);
  }

  finish(): void {
    if (!this.output) return;
    this.output.write(this.output.isTTY ? `\r${this.line()}\x1b[K\n` : `${this.line()}\n`);
  }

  elapsedSeconds(): number {
    return (this.now() - this.started) / 1000;
  }
}
