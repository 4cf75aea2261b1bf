import { existsSync } from 'node:fs';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

// A tau-bench run that crashed before its first message: no messages, an error in `info`. A case that asks for its
// answer must fail it in every output, never skip it (a run that produced nothing would otherwise pass CI).
const CRASHED = [
  {
    task_id: 3,
    reward: 0,
    trial: 0,
    traj: [],
    info: { error: 'litellm.RateLimitError: quota exceeded', task: { actions: [] } },
  },
];
const CASES = `id: retail
cases:
  - id: '3'
    expect:
      answer: { contains: [order] }
`;

describe('a run that produced no answer fails its answer check everywhere', () => {
  it('needlework run, its JUnit file and needlework score all fail it, naming what is missing', async () => {
    expect(existsSync(join(ROOT, 'dist/src/cli/bin.js')), 'run `npm run build` first').toBe(true);
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await writeFile(join(dir, 'crashed.json'), JSON.stringify(CRASHED));
    await writeFile(join(dir, 'needles/retail.cases.yaml'), CASES);
    const imported = await needlework(dir, 'import', 'crashed.json', '--out', 'workups');
    expect(imported.code, imported.stderr).toBe(0);

    const run = await needlework(
      dir,
      'run',
      'workups',
      '--reporter',
      'default',
      '--reporter',
      'needlework-junit',
    );
    expect(run.code, run.stdout + run.stderr).toBe(1);
    expect(run.stdout).toMatch(/Tests {2}1 failed/);
    expect(run.stdout).not.toMatch(/skipped/);
    expect(run.stdout + run.stderr).toContain('answer_contains = nothing: the run recorded no final answer');
    const junit = await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8');
    expect(junit).toMatch(/<failure message="answer_contains = nothing: the run recorded no final answer"/);
    expect(junit).not.toContain('<skipped');

    const score = await needlework(
      dir,
      'score',
      'workups/task-3-trial-1',
      '--needle',
      'needles/retail.cases.yaml',
    );
    expect(score.code, score.stdout + score.stderr).toBe(1);
    expect(score.stdout).toMatch(/fail {2}answer contains +nothing +the run recorded no final answer\n/);
  }, 60_000);
});
