import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import type { RunDetail, WorkupAnswer } from '../../src/ui/client/types.js';
import { type ReportContents, readReport } from '../../src/ui/report/read.js';
import { checkMeta, makeProject, removeProject, runVitest, testFileSource } from './harness.js';

// Two live tests named alike in two files, as `agentTest` saves them: one workup id, two folders
// (`<workups>/<test file>/<test name>/`). The reporter must keep them apart from Vitest's own records on.

const ID = 'agentTest-finds-the-link';
const folder = (file: string) => `.needlework/workups/test/agents/${file}/${ID}`;

const trajectory = (tool: string, latency: number) =>
  JSON.stringify({
    task_id: ID,
    task_input: 'find the link',
    steps: [1, 2].map((id) => ({
      step_id: id,
      step_type: id === 1 ? 'tool_call' : 'answer',
      content: id === 1 ? '' : 'done',
      tool_name: id === 1 ? tool : null,
      tool_input: id === 1 ? { id: 7 } : null,
      tool_output: null,
      timestamp: null,
      latency_ms: latency,
      tokens_used: 20,
      error: null,
    })),
    final_answer: 'done',
    succeeded: true,
    total_tokens: 0,
    total_latency_ms: 0,
    metadata: {},
  });

const liveTest = (file: string, pass: boolean) =>
  testFileSource([
    {
      describe: ['agentTest'],
      name: 'finds the link',
      meta: checkMeta({
        spec: 'matcher',
        specKind: 'matcher',
        workup: ID,
        workupPath: folder(file),
        criterion: 'toMatchTrajectory',
        metric: 'trajectory_match',
        value: pass ? 1 : 0,
        verdict: pass ? 'pass' : 'fail',
      }),
      outcome: pass ? 'pass' : 'fail',
    },
  ]);

let root: string;
let contents: ReportContents;

beforeAll(async () => {
  root = await makeProject({
    'test/agents/booking.check.mjs': liveTest('booking', true),
    'test/agents/refunds.check.mjs': liveTest('refunds', false),
    [`${folder('booking')}/trajectory.json`]: trajectory('lookup_booking', 10),
    [`${folder('refunds')}/trajectory.json`]: trajectory('issue_refund', 15),
  });
  await runVitest(root, [new NeedleworkHtmlReporter({ outputFile: 'report.html', trendFile: false })]);
  contents = readReport(await readFile(join(root, 'report.html'), 'utf8'));
}, 120_000);

afterAll(() => removeProject(root));

const workup = (file: number) =>
  contents.answers.get(
    `/api/runs/${contents.info.run}/workups/${ID}${file > 1 ? `?file=${file}` : ''}`,
  ) as WorkupAnswer;

describe('the HTML reporter on two live tests of one name in two files', () => {
  it('shows two workups, each read from its own folder, with its own check', () => {
    expect(
      [1, 2].map((file) => [
        workup(file).workup,
        workup(file).path,
        workup(file).steps[0]?.tool,
        workup(file).tally?.latencyMs,
        workup(file).checks.map((c) => c.verdict),
      ]),
    ).toEqual([
      [ID, folder('booking'), 'lookup_booking', 20, ['pass']],
      [ID, folder('refunds'), 'issue_refund', 30, ['fail']],
    ]);
    // Each names the other, so the view links both.
    expect(workup(1).files).toEqual([folder('booking'), folder('refunds')]);
    expect(workup(1).problem).toBeUndefined();
    // The failing check names which of the two it is: the second file.
    const detail = contents.answers.get(`/api/runs/${contents.info.run}`) as RunDetail;
    expect(detail.checks.map((c) => [c.verdict, c.workupFile])).toEqual([
      ['pass', 1],
      ['fail', 2],
    ]);
  });

  it('heads each trajectory with the sums of its steps, not the zeros it records', () => {
    expect([1, 2].map((file) => [workup(file).tally?.tokens, workup(file).tally?.recorded])).toEqual([
      [40, { tokens: 0, latencyMs: 0 }],
      [40, { tokens: 0, latencyMs: 0 }],
    ]);
  });
});
