import { mkdir } from 'node:fs/promises';
import { dirname } from 'node:path';
import { describeFsError, UserError } from '../errors/index.js';
import { type FileData, writeFileAtomic } from './atomic.js';
import { displayPath } from './display-path.js';
import { terminalSafe } from './terminal.js';

let failures = 0;

/**
 * Writes a report file atomically, creating its folder. A report that cannot be written (a full disk, a read-only
 * or missing folder, a path under a file) is said in one line naming the path and the cause, with no stack trace,
 * and fails the run (exit code 1) without stopping the other reports. Returns whether the file was written; the file
 * there before, if any, is left whole when it was not.
 */
export async function writeReportFile(path: string, data: FileData): Promise<boolean> {
  try {
    await mkdir(dirname(path), { recursive: true });
    await writeFileAtomic(path, data);
    return true;
  } catch (error) {
    // A report whose chunks failed to build is a fault of ours, not of the disk: it surfaces as itself.
    if (!(error instanceof UserError) && (error as NodeJS.ErrnoException)?.code === undefined) throw error;
    reportWriteFailure(path, error);
    return false;
  }
}

/**
 * Says that the report at `path` could not be written, in one line on stderr, and fails the run: sets the exit code
 * to 1 and counts the failure for `needlework run` (which sets its own exit code). A `UserError` (a history that is
 * not one) is said as it is.
 */
export function reportWriteFailure(path: string, error: unknown): void {
  failures++;
  process.exitCode = 1;
  const line =
    error instanceof UserError
      ? error.message
      : `cannot write ${displayPath(path)}: ${describeFsError(error)}`;
  process.stderr.write(`needlework: ${terminalSafe(line)}\n`);
}

/** How many report writes have failed in this process. */
export function reportWriteFailures(): number {
  return failures;
}
