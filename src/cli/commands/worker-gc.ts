import { execFile } from 'node:child_process';

/**
 * The garbage-collection setting of the test worker that `needlework run` starts: after each full collection V8 lets
 * the heap grow to at most twice what survived it (`--heap-growing-percent=100`), where by default it allows up to
 * four times on a machine with memory to spare. The worker of a 10,000-case run keeps about 220 MB alive, and by
 * default its heap reached 570 MB before its next full collection (peak RSS 570-680 MB); with this it stays near 440
 * MB in most runs, at the same CPU time (docs/performance.md).
 */
export const WORKER_GC_FLAG = '--heap-growing-percent=100';

/**
 * The `execArgv` for the test worker: `WORKER_GC_FLAG` when this Node's V8 has it (`node --v8-options` lists it), else
 * none. A V8 flag is not Node's to keep: given one its V8 lacks, Node refuses to start the worker (exit code 9).
 *
 * @param v8Options `node --v8-options` of the Node that runs the worker; read from `process.execPath` when absent.
 */
export async function workerExecArgv(v8Options?: string): Promise<string[]> {
  const listed = v8Options ?? (await v8OptionsOf(process.execPath));
  return /^\s*--heap-growing-percent\b/m.test(listed) ? [WORKER_GC_FLAG] : [];
}

function v8OptionsOf(node: string): Promise<string> {
  return new Promise((resolve) => {
    // A Node that cannot list its flags gets none of ours.
    execFile(node, ['--v8-options'], { maxBuffer: 1 << 23 }, (error, stdout) => resolve(error ? '' : stdout));
  });
}
