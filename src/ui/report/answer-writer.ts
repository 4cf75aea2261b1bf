import type { TrendCheck } from '../../history/types.js';
import type { LoadedWorkup, WorkupPreload } from '../../report/workups.js';
import { runWorkupAnswer } from './workups.js';
import type { EncodedText } from './written-json.js';

/** How a workup's answer written with no run begins: `workupAnswer` writes the run first. */
export const NO_RUN = '{"run":""';

/** The size of the buffers answers are written into. */
export const CHUNK = 1024 * 1024;

const encoder = new TextEncoder();

/** How long answers are written before the event loop turns (a thread keeps hearing its messages, a process its workers). */
const SLICE_MS = 4;

/** A workup file whose answers are to be written. */
export interface WriteRequest {
  /** Its path as the checks give it (where it is read from). */
  path: string;
  /** Its path from the project root, as the run's checks name it. */
  named: string;
  /** Per workup id its checks name, its checks in the run's order. */
  answers: Array<{ workup: string; checks: TrendCheck[] }>;
}

/** Answers written, by `answerKey`: each one's JSON after `NO_RUN`, in UTF-8. */
export type WrittenAnswers = Map<string, EncodedText>;

/** What names an answer among those written: the workup's path as the checks give it, and its id. */
export function answerKey(path: string, workup: string): string {
  return `${path}\0${workup}`;
}

/** Where answers are written: in this process (`WorkupAnswerWriter`) or in a thread of their own (answer-thread.ts). */
export interface AnswerWriting {
  /** Starts reading these workups, ahead of their answers. */
  read(paths: readonly string[]): void;
  /** Writes these answers, after those asked for before. */
  write(requests: readonly WriteRequest[]): void;
  /** Every answer asked for so far, once written (none more after). */
  finish(): Promise<WrittenAnswers>;
  /** Stops, whatever is left (a run that ended without its report). */
  close(): void;
}

/**
 * Writes workups' answers with no run (see `WorkupAnswersAhead`), each from the workup its preload reads, which it lets
 * go once the answer is written; in slices of a few milliseconds.
 */
export class WorkupAnswerWriter implements AnswerWriting {
  private readonly written: WrittenAnswers = new Map();
  /** The buffers the answers are written into, one after another: the last one is being filled. */
  readonly chunks: Uint8Array[] = [];
  private filled = 0;
  private readonly queue: WriteRequest[] = [];
  private next = 0;
  private active = false;
  /** Who waits for the queue to be written. */
  private readonly idle: Array<() => void> = [];

  constructor(private readonly workups: WorkupPreload<LoadedWorkup>) {}

  read(paths: readonly string[]): void {
    // A workup that cannot be read is a value; anything else thrown is left to its answer, built at the end.
    for (const path of paths) this.workups.value(path).catch(() => undefined);
  }

  write(requests: readonly WriteRequest[]): void {
    for (const request of requests) this.queue.push(request);
    if (this.active) return;
    this.active = true;
    void this.run();
  }

  async finish(): Promise<WrittenAnswers> {
    if (this.active) await new Promise<void>((done) => this.idle.push(done));
    return this.written;
  }

  close(): void {
    this.queue.length = 0;
    this.next = 0;
  }

  private async run(): Promise<void> {
    try {
      let sliceEnd = performance.now() + SLICE_MS;
      while (this.next < this.queue.length) {
        const request = this.queue[this.next++]!;
        // Taken entries are dropped a block at a time: the queue neither keeps the whole run nor shifts per item.
        if (this.next === 1024) {
          this.queue.splice(0, 1024);
          this.next = 0;
        }
        await this.writeOne(request).catch(() => undefined);
        if (performance.now() >= sliceEnd) {
          await new Promise((done) => setImmediate(done));
          sliceEnd = performance.now() + SLICE_MS;
        }
      }
    } finally {
      this.active = false;
      for (const done of this.idle.splice(0)) done();
    }
  }

  private async writeOne(request: WriteRequest): Promise<void> {
    const found = await this.workups.value(request.path);
    this.workups.release(request.path);
    for (const { workup, checks } of request.answers) {
      const json = JSON.stringify(
        runWorkupAnswer('', { workup, path: request.named, files: [request.named], checks }, found),
      );
      if (!json.startsWith(NO_RUN)) continue;
      const rest = json.slice(NO_RUN.length);
      this.written.set(answerKey(request.path, workup), { bytes: this.encoded(rest), length: rest.length });
    }
  }

  /**
   * `text` in UTF-8, written into the chunk being filled (or a new one), rather than a buffer of its own: a thread hands
   * its chunks over whole, never copied.
   */
  private encoded(text: string): Buffer {
    let chunk = this.chunks.at(-1);
    if (chunk) {
      const { read, written } = encoder.encodeInto(text, chunk.subarray(this.filled));
      if (read === text.length) return this.taken(chunk, written);
    }
    chunk = new Uint8Array(Math.max(CHUNK, Buffer.byteLength(text)));
    this.chunks.push(chunk);
    this.filled = 0;
    return this.taken(chunk, encoder.encodeInto(text, chunk).written);
  }

  private taken(chunk: Uint8Array, size: number): Buffer {
    const bytes = Buffer.from(chunk.buffer, chunk.byteOffset + this.filled, size);
    this.filled += size;
    return bytes;
  }
}
