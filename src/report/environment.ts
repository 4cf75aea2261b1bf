import { readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { TrendEnvironment } from '../history/types.js';
import { byteCompare } from '../model/order.js';
import { isWorkupLine, loadWorkup } from '../workup/load.js';
import type { CheckRecord } from './checks.js';
import { type LoadedWorkup, WorkupPreload } from './workups.js';

/**
 * What ran, from the `meta` of the workups the checks name: `model` (a string, or an SDK's `{ modelId }`) and the
 * agent's version (`agentVersion`, `agent_version`, or `agent.version`). A run of several models lists each once,
 * comma-separated in byte order. A workup whose meta cannot be read adds nothing (its checks still report it).
 *
 * @param metas the workups' metas as read during the run (`metaLoader`); read now when not given.
 */
export async function detectEnvironment(
  checks: readonly CheckRecord[],
  root: string,
  metas: WorkupPreload<WorkupMeta | undefined> = metaLoader(root),
): Promise<TrendEnvironment | undefined> {
  const models = new Set<string>();
  const versions = new Set<string>();
  for (const meta of (await metas.forChecks(checks)).values()) {
    const model = text(meta?.['model']) ?? text((meta?.['model'] as { modelId?: unknown })?.modelId);
    const version =
      text(meta?.['agentVersion']) ??
      text(meta?.['agent_version']) ??
      text((meta?.['agent'] as { version?: unknown })?.version);
    if (model) models.add(model);
    if (version) versions.add(version);
  }
  const environment: TrendEnvironment = {};
  if (models.size) environment.model = [...models].sort(byteCompare).join(', ');
  if (versions.size) environment.agentVersion = [...versions].sort(byteCompare).join(', ');
  return Object.keys(environment).length ? environment : undefined;
}

type WorkupMeta = Record<string, unknown>;

/**
 * Reads the metas of a run's workups (by the checks' `workupPath`, against `root`), as their tests finish. A workup
 * that `loaded()` (the run's reporters that show workups, when it has one) has started on is read from there rather
 * than again: at 10,000 workups the metas' own reading was 0.24 s of the main thread's time while the tests ran (0.34
 * s from a `*.workups.jsonl` file, whose lines it parsed whole a second time). One that did not load there (a bad
 * trajectory, say) still has its meta read on its own.
 */
export function metaLoader(
  root: string,
  loaded: () => WorkupPreload<LoadedWorkup> | undefined = () => undefined,
): WorkupPreload<WorkupMeta | undefined> {
  return new WorkupPreload(async (path) => {
    const workup = await loaded()?.started(path);
    return workup && 'workup' in workup ? workup.workup.meta : metaOf(resolve(root, path));
  });
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

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
