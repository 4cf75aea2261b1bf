import { mkdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import { writeFileAtomic } from '../io/atomic.js';
import type { LedgerEntry } from '../model/ledger.js';
import type { Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import { folderId } from './folder-name.js';

/**
 * Writes a workup as the folder `loadWorkup` reads: `trajectory.json` (when it has a trajectory), `provenance.jsonl`
 * (always, empty for an empty ledger), `note.md` (when it has a note) and `meta.json` (its meta without `path`, which
 * says where a workup was loaded from and is set again on load). The folder is created if absent; files of the same
 * name are replaced atomically (each file is the old one or the new one, never a part), and a part the workup lacks is
 * removed. When the folder's name does not give the workup's id back (an id that is no safe file name was saved under
 * `safeFolderName`), `meta.json` holds the id. Values must already be JSON data (see the recorder's `plain`): nothing
 * is converted here.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { mkdtemp } from 'node:fs/promises';
 * import { tmpdir } from 'node:os';
 * import { join } from 'node:path';
 * import { loadWorkup, saveWorkup } from 'needlework';
 *
 * const workup = await loadWorkup('fixtures/workups/grounded');
 * const dir = await saveWorkup(workup, join(await mkdtemp(join(tmpdir(), 'workups-')), 'grounded'));
 * // The folder loads back as the same run:
 * assert.deepEqual((await loadWorkup(dir)).ledger, workup.ledger);
 * ```
 */
export async function saveWorkup(workup: Workup, dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  const { path: _where, ...rest } = workup.meta;
  // The id is written when the folder would not give it back (a name made safe, or a `<task>/<n>` layout).
  const meta = folderId(dir) === workup.id ? rest : { id: workup.id, ...rest };
  const writes = [
    writeFileAtomic(join(dir, 'provenance.jsonl'), ledgerText(workup.ledger)),
    writeFileAtomic(join(dir, 'meta.json'), `${JSON.stringify(meta, null, 2)}\n`),
  ];
  // A part the workup lacks is removed, so a folder saved again never keeps a stale part of an earlier run.
  const part = (name: string, text: string | undefined) =>
    writes.push(
      text === undefined ? rm(join(dir, name), { force: true }) : writeFileAtomic(join(dir, name), text),
    );
  part('trajectory.json', workup.trajectory && trajectoryText(workup.trajectory));
  part('gold.trajectory.json', workup.gold && trajectoryText(workup.gold));
  part('note.md', workup.note?.source);
  await Promise.all(writes);
  return dir;
}

function ledgerText(ledger: readonly LedgerEntry[]): string {
  let text = '';
  for (const entry of ledger) text += `${JSON.stringify(entry)}\n`;
  return text;
}

/**
 * A trajectory as `trajectory.json` text, its fields in the format's order.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { loadWorkup, trajectoryText } from 'needlework';
 *
 * const { trajectory } = await loadWorkup('fixtures/workups/grounded');
 * // trajectory.json's text: the schema's field order, two-space indentation, a final newline.
 * const text = trajectoryText(trajectory!);
 * assert.ok(text.startsWith('{\n  "task_id"') && text.endsWith('}\n'));
 * ```
 */
export function trajectoryText(trajectory: Trajectory): string {
  return `${JSON.stringify(inTrajectoryOrder(trajectory), null, 2)}\n`;
}

/**
 * The trajectory with its fields in the order Python's `dataclasses.asdict(AgentTrajectory)` writes them (the
 * dataclass field order), so a saved `trajectory.json` reads like one the Python logger saved.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { inTrajectoryOrder, loadWorkup } from 'needlework';
 *
 * const { trajectory } = await loadWorkup('fixtures/workups/grounded');
 * // The fields in the order the trajectory schema lists them, for stable files and diffs:
 * assert.equal(Object.keys(inTrajectoryOrder(trajectory!))[0], 'task_id');
 * ```
 */
export function inTrajectoryOrder(t: Trajectory): Trajectory {
  return {
    task_id: t.task_id,
    task_input: t.task_input,
    steps: t.steps.map((s) => ({
      step_id: s.step_id,
      step_type: s.step_type,
      content: s.content,
      tool_name: s.tool_name,
      tool_input: s.tool_input,
      tool_output: s.tool_output,
      timestamp: s.timestamp,
      latency_ms: s.latency_ms,
      tokens_used: s.tokens_used,
      error: s.error,
      ...(s.call_id !== undefined ? { call_id: s.call_id } : {}),
    })),
    final_answer: t.final_answer,
    succeeded: t.succeeded,
    total_tokens: t.total_tokens,
    total_latency_ms: t.total_latency_ms,
    metadata: t.metadata,
  };
}

/** @deprecated Renamed `inTrajectoryOrder`. */
export const inSeedOrder = inTrajectoryOrder;
