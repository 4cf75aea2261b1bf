// The CI recipes of docs/store.md, played step by step: the command their jobs run (`npx needlework run runs/
// --fail-on-regression` with NEEDLEWORK_STORE naming a PostgreSQL server), with the variables GitHub Actions and GitLab
// set on a push to main, a push to a topic branch and a pull or merge request. What the docs promise: a request's run
// is compared with its base branch's latest full run, and a run on main with main's previous run.
import { existsSync, readFileSync } from 'node:fs';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { BIN, needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { serverDescribe } from './engines.js';

const tmp = useTmpDir();
const DOCS = readFileSync(new URL('../../docs/store.md', import.meta.url), 'utf8');
/** The command every recipe's job runs, as the docs write it. */
const COMMAND = 'npx needlework run runs/ --fail-on-regression';

/** Every CI variable a recipe's run could read, unset, so the machine running the tests leaks none in. */
const UNSET = [
  'GITHUB_ACTIONS',
  'GITHUB_SHA',
  'GITHUB_REF_NAME',
  'GITHUB_HEAD_REF',
  'GITHUB_BASE_REF',
  'GITHUB_EVENT_NAME',
  'GITHUB_STEP_SUMMARY',
  'GITLAB_CI',
  'CI_COMMIT_SHA',
  'CI_COMMIT_REF_NAME',
  'CI_COMMIT_BRANCH',
  'CI_MERGE_REQUEST_TARGET_BRANCH_NAME',
  'CI_PIPELINE_SOURCE',
];

/** A project of one task case, `bridge`, with 10 recorded trials, `passes` of them with the right answer. */
async function project(dir: string, passes: number): Promise<void> {
  await rm(join(dir, 'runs'), { recursive: true, force: true });
  await mkdir(join(dir, 'needles'), { recursive: true });
  await writeFile(
    join(dir, 'needles/flights.cases.yaml'),
    'id: flights\ncases:\n  - id: bridge\n    expect:\n      answer:\n        equals: "Booked."\n',
  );
  for (let i = 1; i <= 10; i++) {
    const folder = join(dir, 'runs', `bridge-${i}`);
    await mkdir(folder, { recursive: true });
    const answer = i <= passes ? 'Booked.' : 'Sorry.';
    await writeFile(join(folder, 'meta.json'), JSON.stringify({ task: 'bridge', trial: i }));
    await writeFile(
      join(folder, 'trajectory.json'),
      JSON.stringify({
        task_id: 'bridge',
        task_input: 'Book it',
        steps: [{ step_id: 1, step_type: 'answer', content: answer }],
        final_answer: answer,
        metadata: {},
      }),
    );
  }
}

serverDescribe('the CI recipes against a PostgreSQL server', (server) => {
  it.skipIf(!existsSync(BIN))(
    'GitHub Actions and GitLab: a request is compared with its base branch, a run on main with main',
    async () => {
      // The recipes run exactly this command, and give the store by NEEDLEWORK_STORE.
      expect(DOCS).toContain(`- run: ${COMMAND}`);
      expect(DOCS).toContain(`    - ${COMMAND}`);
      // GitHub's own expression syntax, not a template placeholder.
      expect(DOCS).toContain(`NEEDLEWORK_STORE: $\{{ secrets.NEEDLEWORK_STORE }}`);
      const store = await server().database('recipes');
      const dir = await tmp();
      const job = async (passes: number, ci: Record<string, string>) => {
        await project(dir, passes);
        const env: Record<string, string | undefined> = { NEEDLEWORK_STORE: store, ...ci };
        for (const name of UNSET) if (!(name in ci)) env[name] = undefined;
        const saved = { ...process.env };
        try {
          for (const [name, value] of Object.entries(env))
            if (value === undefined) delete process.env[name];
            else process.env[name] = value;
          return await needlework(dir, 'run', 'runs/', '--fail-on-regression');
        } finally {
          process.env = saved;
        }
      };
      const github = (sha: string, event: string, ref: string, head?: string, base?: string) => ({
        GITHUB_ACTIONS: 'true',
        GITHUB_SHA: sha,
        GITHUB_EVENT_NAME: event,
        GITHUB_REF_NAME: ref,
        ...(head && { GITHUB_HEAD_REF: head }),
        ...(base && { GITHUB_BASE_REF: base }),
      });

      // A push to main: 10 of 10. Then a push to topic: 0 of 10 (its own branch's first run: no baseline).
      expect((await job(10, github('a1a1a1a1', 'push', 'main'))).code).toBe(0);
      expect((await job(0, github('b2b2b2b2', 'push', 'topic'))).code).toBe(1);

      // The pull request from topic into main, 2 of 10: compared with main's run (10 of 10), so it regressed.
      const pr = await job(2, github('c3c3c3c3', 'pull_request', '12/merge', 'topic', 'main'));
      expect(pr.code).toBe(1);
      expect(pr.stdout).toMatch(/^needlework: vs a1a1a1a \(main\): 1 regressed$/m);
      expect(pr.stdout).toContain(
        'needlework:   regressed: flights/bridge answer-equals: 10/10 passed -> 2/10 passed (p < 0.001, exact test)',
      );

      // The next push to main, 10 of 10: compared with main's previous run, not the pull request's between them.
      const main = await job(10, github('d4d4d4d4', 'push', 'main'));
      expect(main.code).toBe(0);
      expect(main.stdout).toMatch(/^needlework: vs a1a1a1a \(main\): nothing regressed$/m);

      // GitLab's merge request pipeline into main, 2 of 10: compared with main's latest run (d4d4d4d, 10 of 10).
      const mr = await job(2, {
        GITLAB_CI: 'true',
        CI_PIPELINE_SOURCE: 'merge_request_event',
        CI_COMMIT_SHA: 'e5e5e5e5',
        CI_COMMIT_REF_NAME: 'topic',
        CI_MERGE_REQUEST_TARGET_BRANCH_NAME: 'main',
      });
      expect(mr.code).toBe(1);
      expect(mr.stdout).toMatch(/^needlework: vs d4d4d4d \(main\): 1 regressed$/m);
    },
    180_000,
  );
});
