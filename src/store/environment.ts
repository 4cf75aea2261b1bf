import { readFile, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import type { CheckRecord } from '../report/checks.js';
import { byteCompare } from '../report/checks.js';
import type { TrendEnvironment } from '../report/trend/types.js';

/**
 * What ran, from the `meta` of the workups the checks name: `model` (a string, or an SDK's `{ modelId }`) and the
 * agent's version (`agentVersion`, `agent_version`, or `agent.version`). A run of several models lists each once,
 * comma-separated in byte order. A workup whose meta cannot be read adds nothing (its checks still report it).
 */
export async function detectEnvironment(
  checks: readonly CheckRecord[],
  root: string,
): Promise<TrendEnvironment | undefined> {
  const paths = [...new Set(checks.flatMap((c) => (c.meta?.workupPath ? [c.meta.workupPath] : [])))];
  const models = new Set<string>();
  const versions = new Set<string>();
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const meta = await readMeta(resolve(root, paths[next++]!));
      const model = text(meta?.['model']) ?? text((meta?.['model'] as { modelId?: unknown })?.modelId);
      const version =
        text(meta?.['agentVersion']) ??
        text(meta?.['agent_version']) ??
        text((meta?.['agent'] as { version?: unknown })?.version);
      if (model) models.add(model);
      if (version) versions.add(version);
    }
  };
  await Promise.all(Array.from({ length: Math.min(8, paths.length) }, worker));
  const environment: TrendEnvironment = {};
  if (models.size) environment.model = [...models].sort(byteCompare).join(', ');
  if (versions.size) environment.agentVersion = [...versions].sort(byteCompare).join(', ');
  return Object.keys(environment).length ? environment : undefined;
}

const text = (value: unknown): string | undefined =>
  typeof value === 'string' && value !== '' ? value : typeof value === 'number' ? String(value) : undefined;

/** A workup's meta: `meta.json` in its folder, or the `meta` of a single-file workup. */
async function readMeta(path: string): Promise<Record<string, unknown> | undefined> {
  try {
    const folder = (await stat(path)).isDirectory();
    const data = JSON.parse(await readFile(folder ? join(path, 'meta.json') : path, 'utf8')) as unknown;
    const meta = folder ? data : (data as { meta?: unknown })?.meta;
    return typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
