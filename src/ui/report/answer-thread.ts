// The thread the static report's workup answers are written in (answer-writing.ts starts it): a
// `WorkupAnswerWriter` over a preload of its own, spoken to in messages. Requests: `{ op: 'read', paths }`,
// `{ op: 'write', requests }`, `{ op: 'finish' }`; the answers to `finish` are `{ op: 'chunk', bytes, entries }` (a
// buffer the answers were written into, handed over whole, and each one's key, offset, size and length in UTF-16 code
// units), then `{ op: 'done' }`.
import { readlinkSync } from 'node:fs';
import { constants, setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { workupLoader } from '../../report/workups.js';
import { WorkupAnswerWriter, type WriteRequest } from './answer-writer.js';

export type ThreadRequest =
  | { op: 'read'; paths: string[] }
  | { op: 'write'; requests: WriteRequest[] }
  | { op: 'finish' };

export type ThreadAnswer =
  | {
      op: 'chunk';
      bytes: Uint8Array;
      entries: Array<[key: string, offset: number, size: number, length: number]>;
    }
  | { op: 'done' };

/**
 * Lowers this thread's priority (Linux: a thread is its own task, named by /proc/thread-self): it reads and writes on
 * what the test worker and the main thread leave of the machine's cores (at 10,000 cases about a second of CPU, while
 * the tests run), rather than taking a share of theirs. Elsewhere, or where it may not, it runs as it is.
 */
function yieldToTheRun(): void {
  try {
    const tid = Number(readlinkSync('/proc/thread-self').split('/').at(-1));
    if (Number.isInteger(tid) && tid > 0) setPriority(tid, constants.priority.PRIORITY_LOW);
  } catch {
    // Not Linux, or not allowed: full priority.
  }
}

const port = parentPort;
if (port) {
  yieldToTheRun();
  const writer = new WorkupAnswerWriter(workupLoader((workerData as { root: string }).root));
  port.on('message', async (request: ThreadRequest) => {
    if (request.op === 'read') writer.read(request.paths);
    else if (request.op === 'write') writer.write(request.requests);
    else {
      const written = await writer.finish();
      // Each chunk handed over whole, with the answers written into it.
      const entries = new Map<ArrayBufferLike, Array<[string, number, number, number]>>();
      for (const chunk of writer.chunks) entries.set(chunk.buffer, []);
      for (const [key, text] of written)
        entries.get(text.bytes.buffer)?.push([key, text.bytes.byteOffset, text.bytes.length, text.length]);
      for (const chunk of writer.chunks.splice(0))
        port.postMessage(
          { op: 'chunk', bytes: chunk, entries: entries.get(chunk.buffer) ?? [] } satisfies ThreadAnswer,
          [chunk.buffer as ArrayBuffer],
        );
      written.clear();
      port.postMessage({ op: 'done' } satisfies ThreadAnswer);
    }
  });
}
