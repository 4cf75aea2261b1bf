/** Where a progress bar draws: stderr in the CLI, nothing when it is not a terminal. */
export interface ProgressStream {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

/**
 * A one-line download bar, drawn only on a terminal (a CI log or a pipe would fill with carriage-return noise), and
 * at most ten times a second so a fast local download does not spend its time drawing.
 */
export class ProgressBar {
  private readonly stream: ProgressStream | undefined;
  private readonly label: string;
  private total: number | undefined;
  private done = 0;
  private last = 0;

  constructor(stream: ProgressStream | undefined, label: string, total?: number) {
    this.stream = stream?.isTTY ? stream : undefined;
    this.label = label;
    this.total = total;
  }

  start(done: number, total: number | undefined): void {
    this.done = done;
    if (total !== undefined) this.total = total;
    this.draw(true);
  }

  advance(bytes: number): void {
    this.done += bytes;
    this.draw(false);
  }

  finish(): void {
    if (!this.stream) return;
    this.draw(true);
    this.stream.write('\n');
  }

  private draw(force: boolean): void {
    if (!this.stream) return;
    const now = Date.now();
    if (!force && now - this.last < 100) return;
    this.last = now;
    const size = `${mb(this.done)}${this.total ? `/${mb(this.total)}` : ''} MB`;
    if (!this.total) {
      this.stream.write(`\r${this.label} ${size}`);
      return;
    }
    const ratio = Math.min(1, this.done / this.total);
    const width = Math.max(10, Math.min(30, (this.stream.columns ?? 80) - this.label.length - 30));
    const filled = Math.round(ratio * width);
    const bar = `${'█'.repeat(filled)}${'░'.repeat(width - filled)}`;
    this.stream.write(`\r${this.label} ${bar} ${String(Math.floor(ratio * 100)).padStart(3)}% ${size}`);
  }
}

function mb(bytes: number): string {
  return (bytes / 1_000_000).toFixed(1);
}
