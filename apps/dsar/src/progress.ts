const MiB = 1024 * 1024;
const WIDTH = 24;
const REDRAW_MS = 100;

/** Bytes in a short human form: `512 B`, `3.4 KiB`, `96.0 MiB`, `1.20 GiB`. */
export function formatBytes(n: number): string {
  if (n < 1024) return `${n} B`;
  if (n < MiB) return `${(n / 1024).toFixed(1)} KiB`;
  if (n < 1024 * MiB) return `${(n / MiB).toFixed(1)} MiB`;
  return `${(n / (1024 * MiB)).toFixed(2)} GiB`;
}

/**
 * A progress bar on a terminal (standard error), redrawn at most every 100 ms:
 * `upload report.zip [##########--------------]  41%  39.4 MiB / 96.0 MiB  52.1 MiB/s`.
 * Without a terminal it draws nothing, so piped and scripted runs stay clean.
 */
export class Progress {
  private bytes = 0;
  private lastDraw = 0;
  private readonly started = performance.now();

  constructor(
    private readonly label: string,
    private readonly total: number | undefined,
    private readonly out: NodeJS.WriteStream | undefined,
  ) {}

  add(n: number): void {
    this.bytes += n;
    if (!this.out) return;
    const now = performance.now();
    if (now - this.lastDraw >= REDRAW_MS) {
      this.lastDraw = now;
      this.draw(now);
    }
  }

  /** Draws the final state and ends the line. */
  done(): void {
    if (!this.out) return;
    this.draw(performance.now());
    this.out.write('\n');
  }

  private draw(now: number): void {
    if (!this.out) return;
    const seconds = Math.max((now - this.started) / 1000, 0.001);
    const rate = `${formatBytes(Math.round(this.bytes / seconds))}/s`;
    let line: string;
    if (this.total) {
      const share = Math.min(this.bytes / this.total, 1);
      const filled = Math.round(share * WIDTH);
      line = `${this.label} [${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}] ${String(Math.floor(share * 100)).padStart(3)}%  ${formatBytes(this.bytes)} / ${formatBytes(this.total)}  ${rate}`;
    } else {
      line = `${this.label} ${formatBytes(this.bytes)}  ${rate}`;
    }
    this.out.write(`\r${line}\x1b[K`);
  }
}
