import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TrendEnvironment } from '../history/types.js';
import { byteCompare } from '../model/order.js';
import { type WorkupEnvironment, workupEnvironment } from '../workup/environment.js';
import { isWorkupLine, loadWorkup } from '../workup/load.js';
import type { CheckRecord } from './checks.js';
import { type LoadedWorkup, WorkupPreload } from './workups.js';

/**
 * What ran, from the workups the checks name: the `model` and agent version each names (`workupEnvironment`). A run
 * of several models lists each once, comma-separated in byte order. A workup whose meta cannot be read adds nothing
 * (its checks still report it).
 *
 * @param environments the workups' environments as found during the run (`environmentLoader`); read now when not given.
 */
export async function detectEnvironment(
  checks: readonly CheckRecord[],
  root: string,
  environments: WorkupPreload<WorkupEnvironment> = environmentLoader(root),
): Promise<TrendEnvironment | undefined> {
  const models = new Set<string>();
  const versions = new Set<string>();
  for (const found of (await environments.forChecks(checks)).values()) {
    if (found?.model) models.add(found.model);
    if (found?.agentVersion) versions.add(found.agentVersion);
  }
  const environment: TrendEnvironment = {};
  if (models.size) environment.model = [...models].sort(byteCompare).join(', ');
  if (versions.size) environment.agentVersion = [...versions].sort(byteCompare).join(', ');
  return Object.keys(environment).length ? environment : undefined;
}

type WorkupMeta = Record<string, unknown>;

/**
 * Finds the environments of a run's workups (by the checks' `workupPath`, against `root`) while the tests run. A
 * spec's describe of a workup carries it (`needleworkEnvironment`, which the test worker took from the workup it
 * loaded): at 10,000 workups, reading each meta.json again was 0.4-0.9 s of the main thread's CPU (a statSync, a read
 * and a parse each) on the loaded 2-core VM. Any other workup (a check of a hand-written test, a blob of an older
 * version) is read: from what `loaded()` (the run's reporters that show workups, when it has one) has started on, else
 * on its own. One that did not load there (a bad trajectory, say) still has its meta read on its own.
 */
export function environmentLoader(
  root: string,
  loaded: () => WorkupPreload<LoadedWorkup> | undefined = () => undefined,
): WorkupPreload<WorkupEnvironment> {
  return new WorkupPreload(
    async (path) => {
      const workup = await loaded()?.started(path);
      const meta = workup && 'workup' in workup ? workup.workup.meta : await metaOf(resolve(root, path));
      return workupEnvironment(meta);
    },
    (meta) => described(meta.needleworkEnvironment),
  );
}

/** A describe's `needleworkEnvironment`, when it is one (blobs are read, not trusted). */
function described(value: unknown): WorkupEnvironment | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { model, agentVersion } = value as Record<string, unknown>;
  const environment: WorkupEnvironment = {};
  if (typeof model === 'string' && model !== '') environment.model = model;
  if (typeof agentVersion === 'string' && agentVersion !== '') environment.agentVersion = agentVersion;
  return environment;
}

/**
 * A workup's meta: `meta.json` in its folder, the `meta` of a single-file workup, or that of one line of a
 * `*.workups.jsonl` file (read as `loadWorkup` reads it, the file's lines split once for all its workups).
 */
async function metaOf(path: string): Promise<WorkupMeta | undefined> {
  try {
    if (isWorkupLine(path)) return (await loadWorkup(path)).meta;
    const folder = statSync(path).isDirectory();
    const data = JSON.parse(readFileSync(folder ? join(path, 'meta.json') : path, 'utf8')) as unknown;
    const meta = folder ? data : (data as { meta?: unknown })?.meta;
    return typeof meta === 'object' && meta !== null ? (meta as WorkupMeta) : undefined;
  } catch {
    return undefined;
  }
}
