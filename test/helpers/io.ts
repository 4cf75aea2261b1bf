import type { Io } from '../../src/cli/io.js';

/** An `Io` that collects what a command prints, uncoloured. */
export function captureIo(): Io & { stdout: () => string; stderr: () => string } {
  const out: string[] = [];
  const err: string[] = [];
  return {
    out: (text) => out.push(text),
    err: (text) => err.push(text),
    color: false,
    stdout: () => out.join('\n'),
    stderr: () => err.join('\n'),
  };
}
