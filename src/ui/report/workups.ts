import type { TrendRun } from '../../history/types.js';
import { projectPath, projectPaths } from '../../io/display-path.js';
import type { CheckRecord } from '../../report/checks.js';
import type { LoadedWorkup, WorkupPreload } from '../../report/workups.js';
import type { WorkupAnswer } from '../client/types.js';
import { workupAnswer } from '../workup-data.js';
import type { WorkupRef } from './answers.js';

/**
 * The answer of each workup of a run as it ran, from the workups its reporters loaded (keyed by the path a check gives), with
 * `workupAnswer`, as the served UI builds it from a file: what could not be read is said in the answer, as there.
 */
export function loadedWorkupAnswer(
  run: TrendRun,
  loaded: ReadonlyMap<string, LoadedWorkup>,
  root: string,
): (ref: WorkupRef) => Promise<WorkupAnswer> {
  // The run's checks name a workup's path from the root; the loaded ones are keyed by the path as a check gave it.
  const byPath = new Map<string, LoadedWorkup>();
  for (const [path, found] of loaded) byPath.set(projectPath(root, path), found);
  return async (ref) =>
    runWorkupAnswer(run.id, ref, ref.path === undefined ? undefined : byPath.get(ref.path));
}

/**
 * `loadedWorkupAnswer` over the run's preload, each workup read when its answer is asked for (one the preload let go is
 * read again): for the workups whose answers were not written while the tests ran.
 */
export function preloadedWorkupAnswer(
  run: TrendRun,
  records: readonly CheckRecord[],
  preload: WorkupPreload<LoadedWorkup>,
  root: string,
): (ref: WorkupRef) => Promise<WorkupAnswer> {
  let byPath: Map<string, string> | undefined;
  return async (ref) => {
    if (byPath === undefined) {
      // As `loadedWorkupAnswer` keys the loaded ones: each path a check gives, by its path from the root.
      const given = new Set<string>();
      for (const { meta } of records) if (meta?.workupPath) given.add(meta.workupPath);
      const named = projectPaths(root);
      byPath = new Map();
      for (const path of given) byPath.set(named(path), path);
    }
    const path = ref.path === undefined ? undefined : byPath.get(ref.path);
    return runWorkupAnswer(run.id, ref, path === undefined ? undefined : await preload.value(path));
  };
}

/**
 * One workup's answer (`/api/runs/<run>/workups/<workup>`) from what its reporters loaded at its path (`found`,
 * undefined when nothing was): a workup with no file, or whose file is gone or unreadable, is answered with its checks
 * and what kept it from being read.
 */
export function runWorkupAnswer(
  run: string,
  ref: Pick<WorkupRef, 'workup' | 'path' | 'files' | 'checks'>,
  found: LoadedWorkup | undefined,
): WorkupAnswer {
  const source = { run, workup: ref.workup, files: ref.files };
  if (ref.path === undefined)
    return workupAnswer(undefined, ref.checks, {
      ...source,
      problem: {
        kind: 'no-file',
        message: `the workup ${ref.workup} has no file: its test built it in memory`,
      },
    });
  if (found && 'workup' in found)
    return workupAnswer(found.workup, ref.checks, { ...source, path: ref.path });
  return workupAnswer(undefined, ref.checks, {
    ...source,
    path: ref.path,
    problem: {
      kind: found ? 'unreadable' : 'gone',
      message: found
        ? `the workup file ${ref.path} cannot be read: ${found.error}`
        : `the workup file ${ref.path} is not there`,
    },
  });
}
