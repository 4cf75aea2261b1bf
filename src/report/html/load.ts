import { resolve } from 'node:path';
import { isUserError } from '../../errors/index.js';
import { loadWorkup } from '../../workup/load.js';
import type { CheckRecord } from '../checks.js';
import type { LoadedWorkup } from './data.js';

/**
 * Loads every workup the checks name by `workupPath` (relative to `root`), a few at a time. A workup that does not
 * load is kept as its error message: the report still shows its checks and says why the note is missing.
 */
export async function loadCheckedWorkups(
  checks: readonly CheckRecord[],
  root: string,
  concurrency = 8,
): Promise<Map<string, LoadedWorkup>> {
  const paths = [
    ...new Set(checks.flatMap((check) => (check.meta?.workupPath ? [check.meta.workupPath] : []))),
  ];
  const out = new Map<string, LoadedWorkup>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const path = paths[next++]!;
      try {
        out.set(path, { workup: await loadWorkup(resolve(root, path)) });
      } catch (error) {
        if (!isUserError(error) && !(error instanceof Error)) throw error;
        out.set(path, { error: (error as Error).message });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, paths.length) }, worker));
  return out;
}
