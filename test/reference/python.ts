import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));

/** Why the live parity tests cannot run here, or `undefined` when `python3` (3.10 or later) is on the PATH. */
export const pythonUnavailable: string | undefined = (() => {
  const probe = spawnSync('python3', ['-c', 'import sys; print(sys.version_info >= (3, 10))'], {
    encoding: 'utf8',
  });
  if (probe.error || probe.status !== 0)
    return 'python3 is not installed: live parity with the Python references skipped';
  if (probe.stdout.trim() !== 'True')
    return 'python3 is older than 3.10: live parity with the Python references skipped';
  return undefined;
})();

/**
 * Runs one of the reference scripts in this folder once, with `input` as JSON on stdin, and returns its JSON output.
 * The parity tests send all their cases in one call, so the suite starts Python a handful of times, not per case.
 */
export function runReference<T>(script: string, input: unknown): T {
  const run = spawnSync('python3', [join(here, script)], {
    input: JSON.stringify(input),
    encoding: 'utf8',
    maxBuffer: 1 << 30,
  });
  if (run.error) throw run.error;
  if (run.status !== 0) throw new Error(`${script} exited with ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as T;
}
