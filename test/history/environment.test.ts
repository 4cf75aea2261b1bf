import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { CheckRecord } from '../../src/report/checks.js';
import { detectEnvironment, environmentLoader } from '../../src/report/environment.js';
import { type LoadedWorkup, WorkupPreload } from '../../src/report/workups.js';
import { useTmpDir } from '../helpers/tmp.js';

const tmp = useTmpDir();

/** A check of the workup at `path`, as far as the environment reads it. */
const checkOf = (path: string) => ({ meta: { workupPath: path } }) as unknown as CheckRecord;

/** Folder, single-file and JSONL-line workups with a model or an agent version each, under `root`. */
async function writeWorkups(root: string): Promise<string[]> {
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
  return ['folder', 'single.workup.json', 'runs.workups.jsonl:1', 'runs.workups.jsonl:2', 'missing'];
}

describe('detectEnvironment', () => {
  it("takes the metas of the workups the run's reports read from them, reading none of those again", async () => {
    const root = await tmp();
    const [folder, single, ...rest] = await writeWorkups(root);
    // The reports' loader: it has started on every workup but the single file, could not load the folder, and gives
    // each other one a meta naming it.
    const read: string[] = [];
    const reports = new WorkupPreload<LoadedWorkup>(async (path) => {
      read.push(path);
      if (path === folder) return { error: 'trajectory.json: steps must be an array' };
      return { workup: { id: path, ledger: [], meta: { model: `read by the reports: ${path}` } } };
    });
    await reports.forChecks([folder!, ...rest].map(checkOf));
    const environment = await detectEnvironment(
      [folder!, single!, ...rest].map(checkOf),
      root,
      environmentLoader(root, () => reports),
    );
    // The folder the reports could not load, and the file they never started on, have their metas read on their own.
    expect(environment).toEqual({
      model: ['m-folder', ...rest.map((path) => `read by the reports: ${path}`)].sort().join(', '),
      agentVersion: '1',
    });
    expect(read).toEqual([folder, ...rest]);
  });

  it("takes a workup's environment from its describe, reading no meta of it, and reads the others'", async () => {
    const root = await tmp();
    const [folder, single, ...rest] = await writeWorkups(root);
    const environments = environmentLoader(root);
    // A spec module's describes: the folder's says the model its meta.json does not, the single file's names nothing
    // (its meta's agent version is not read), the JSONL lines' describes carry no environment (an older blob).
    const describes = [
      { needleworkWorkup: folder, needleworkEnvironment: { model: 'from the describe', agentVersion: '' } },
      { needleworkWorkup: single, needleworkEnvironment: {} },
      ...rest.map((path) => ({ needleworkWorkup: path, needleworkEnvironment: 'not an environment' })),
    ];
    const suites = describes.map((meta) => ({ meta: () => meta }));
    environments.noteModule({ children: { allSuites: () => suites } } as never);
    await new Promise((done) => setImmediate(done));
    const environment = await detectEnvironment([folder!, single!, ...rest].map(checkOf), root, environments);
    expect(environment).toEqual({ model: 'from the describe, m-line', agentVersion: '3' });
  });

  it('reads the model and agent version of folder, single-file and JSONL-line workups alike', async () => {
    const root = await tmp();
    const environment = await detectEnvironment((await writeWorkups(root)).map(checkOf), root);
    // A workup whose meta cannot be read adds nothing; every other model and version is listed once, in byte order.
    expect(environment).toEqual({ model: 'm-folder, m-line', agentVersion: '1, 3' });
  });
});
