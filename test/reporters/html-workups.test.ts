import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import type { HtmlReportData } from '../../src/report/html/types.js';
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
let data: HtmlReportData;

beforeAll(async () => {
  root = await makeProject({
    'test/agents/booking.check.mjs': liveTest('booking', true),
    'test/agents/refunds.check.mjs': liveTest('refunds', false),
    [`${folder('booking')}/trajectory.json`]: trajectory('lookup_booking', 10),
    [`${folder('refunds')}/trajectory.json`]: trajectory('issue_refund', 15),
  });
  await runVitest(root, [new NeedleworkHtmlReporter({ outputFile: 'report.html', trendFile: false })]);
  const html = await readFile(join(root, 'report.html'), 'utf8');
  const json = /<script type="application\/json" id="needlework-data">([\s\S]*?)<\/script>/.exec(html)?.[1];
  data = JSON.parse(json!) as HtmlReportData;
}, 120_000);

afterAll(() => removeProject(root));

describe('the HTML reporter on two live tests of one name in two files', () => {
  it('shows two workups, each read from its own folder, with its own check', () => {
    expect(
      data.workups.map((w) => [w.id, w.path, w.trajectory?.steps[0]?.tool, w.trajectory?.totalLatencyMs]),
    ).toEqual([
      [ID, folder('booking'), 'lookup_booking', 20],
      [ID, folder('refunds'), 'issue_refund', 30],
    ]);
    const keyOf = Object.fromEntries(data.workups.map((w) => [w.path, w.key]));
    expect(data.checks.map((c) => [c.verdict, c.file, c.workupKey])).toEqual([
      ['fail', 'test/agents/refunds.check.mjs', keyOf[folder('refunds')]],
      ['pass', 'test/agents/booking.check.mjs', keyOf[folder('booking')]],
    ]);
  });

  it('heads each trajectory with the sums of its steps, not the zeros it records', () => {
    expect(
      data.workups.map((w) => w.trajectory && [w.trajectory.totalTokens, w.trajectory.recorded]),
    ).toEqual([
      [40, { tokens: 0, latencyMs: 0 }],
      [40, { tokens: 0, latencyMs: 0 }],
    ]);
  });
});
