import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import { workupLoader } from '../../report/workups.js';
import type { ThreadAnswer, ThreadRequest } from './answer-thread.js';
import {
  type AnswerWriting,
  WorkupAnswerWriter,
  type WriteRequest,
  type WrittenAnswers,
} from './answer-writer.js';

/**
 * Where a run's workup answers are written: in a thread of their own (answer-thread.ts) where its built file is there,
 * else in this process (a thread that cannot start or fails writes none: they are built at the end). The thread reads the workups and writes their answers on the core the test worker leaves idle,
 * so neither costs the main thread, which answers the test worker and, at the end, writes every report. From the
 * TypeScript sources (the tests) the thread is the built one, in dist/.
 */
export function answerWriting(root: string): AnswerWriting {
  const file = threadFile();
  return file ? new ThreadWriting(file, root) : new WorkupAnswerWriter(workupLoader(root));
}

function threadFile(): URL | undefined {
  for (const url of [
    new URL('./answer-thread.js', import.meta.url),
    new URL('../../../dist/src/ui/report/answer-thread.js', import.meta.url),
  ])
    if (existsSync(fileURLToPath(url))) return url;
  return undefined;
}

/**
 * The thread's side of `AnswerWriting`: started with the first request (a run that checks no workup starts none),
 * requests are posted as they come; `finish` collects the answers it hands over. A thread that fails or stops gives no
 * answers (each is built at the end, as without it). It keeps the process alive only while `finish` waits.
 */
class ThreadWriting implements AnswerWriting {
  private worker: Worker | undefined;
  private failed = false;
  private finishing: Promise<WrittenAnswers> | undefined;

  constructor(
    private readonly file: URL,
    private readonly root: string,
  ) {}

  read(paths: readonly string[]): void {
    this.post({ op: 'read', paths: [...paths] });
  }

  write(requests: readonly WriteRequest[]): void {
    this.post({ op: 'write', requests: [...requests] });
  }

  finish(): Promise<WrittenAnswers> {
    this.finishing ??= new Promise<WrittenAnswers>((resolve) => {
      const written: WrittenAnswers = new Map();
      const worker = this.worker;
      if (!worker || this.failed) {
        this.close();
        resolve(written);
        return;
      }
      const end = () => {
        worker.off('message', take);
        this.close();
        resolve(written);
      };
      const take = (answer: ThreadAnswer) => {
        if (answer.op === 'done') return end();
        const { buffer } = answer.bytes;
        for (const [key, offset, size, length] of answer.entries)
          written.set(key, { bytes: Buffer.from(buffer, offset, size), length });
      };
      worker.ref();
      worker.on('message', take);
      // A thread that stops before it is done has given what it had.
      worker.once('exit', end);
      this.post({ op: 'finish' });
    });
    return this.finishing;
  }

  close(): void {
    this.failed = true;
    void this.worker?.terminate();
  }

  private post(request: ThreadRequest): void {
    if (this.failed) return;
    if (!this.worker) {
      try {
        this.worker = new Worker(this.file, { workerData: { root: this.root } });
      } catch {
        // A thread that cannot be started: every answer is built at the end.
        this.failed = true;
        return;
      }
      this.worker.unref();
      this.worker.on('error', () => {
        this.failed = true;
      });
    }
    this.worker.postMessage(request);
  }
}
