import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRecord } from '../../src/report/checks.js';
import { detectEnvironment } from '../../src/store/environment.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A check of the workup at `path`, as far as the environment reads it. */
const checkOf = (path: string) => ({ meta: { workupPath: path } }) as unknown as CheckRecord;

describe('detectEnvironment', () => {
  it('reads the model and agent version of folder, single-file and JSONL-line workups alike', async () => {
    const root = await tmp();
    await mkdir(join(root, 'folder'));
    await writeFile(join(root, 'folder/trajectory.json'), '{"task_id": "t", "steps": []}');
    await writeFile(join(root, 'folder/meta.json'), JSON.stringify({ model: 'm-folder' }));
    await writeFile(
      join(root, 'single.workup.json'),
      JSON.stringify({ id: 's', trajectory: { task_id: 't', steps: [] }, meta: { agent: { version: '1' } } }),
    );
    const line = (id: string, meta: object) =>
      JSON.stringify({ id, trajectory: { task_id: 't', steps: [] }, meta });
    await writeFile(
      join(root, 'runs.workups.jsonl'),
      `${line('a', { model: { modelId: 'm-line' } })}\n${line('b', { agentVersion: '3' })}\n`,
    );
    const environment = await detectEnvironment(
      ['folder', 'single.workup.json', 'runs.workups.jsonl:1', 'runs.workups.jsonl:2', 'missing'].map(
        checkOf,
      ),
      root,
    );
    // A workup whose meta cannot be read adds nothing; every other model and version is listed once, in byte order.
    expect(environment).toEqual({ model: 'm-folder, m-line', agentVersion: '1, 3' });
  });
});
