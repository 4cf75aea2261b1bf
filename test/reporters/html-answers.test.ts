import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runReport } from '../../src/cli/commands/report.js';
import { buildTrendRun } from '../../src/history/entry.js';
import { openStore } from '../../src/history/store/open.js';
import { citationRecall } from '../../src/metrics/citations/recall.js';
import type { CheckMeta } from '../../src/model/check.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';
import type { CheckRecord } from '../../src/report/checks.js';
import type { LoadedWorkup } from '../../src/report/workups.js';
import type { PlainTests, RunDetail, WorkupAnswer } from '../../src/ui/client/types.js';
import { UiData } from '../../src/ui/data.js';
import { type ReportAnswer, reportAnswers, workupRefs } from '../../src/ui/report/answers.js';
import { readReport } from '../../src/ui/report/read.js';
import { loadedWorkupAnswer } from '../../src/ui/report/workups.js';
import { workupAnswer } from '../../src/ui/workup-data.js';
import { workupRoute } from '../../src/ui/workup-route.js';
import { fill, history } from '../ui/history.js';
import { checkMeta } from './harness.js';

const record = (meta: CheckRecord['meta'], state: CheckRecord['state'] = 'passed'): CheckRecord => ({
  name: meta?.criterion ?? 'plain',
  suitePath: [],
  fullName: meta?.criterion ?? 'plain',
  file: 'f.test.ts',
  state,
  durationMs: 1,
  errors: state === 'failed' ? [{ name: 'Error', message: `${meta?.criterion ?? 'plain'} broke` }] : [],
  meta,
});

async function answersOf(input: Parameters<typeof reportAnswers>[0]): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  for await (const [path, answer] of reportAnswers(input) as AsyncIterable<ReportAnswer>)
    out.set(path, answer);
  return out;
}

describe('the report of a stored run holds the served UI answers for its paths, as the UI answers them', () => {
  let dir: string;
  const runs = history();
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'needlework-report-answers-'));
    const store = await openStore(join(dir, 'store'));
    await fill(store, runs);
    await store.close();
  }, 60_000);
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the run, its comparison with its baseline, its trials and the trend up to it', async () => {
    // The second run on main: it regressed against the first, and runs came after it.
    const id = runs[1]!.id;
    const said: string[] = [];
    const io = { out: (t: string) => said.push(t), err: (t: string) => said.push(t), color: false };
    expect(
      await runReport({ store: join(dir, 'store'), run: id, out: join(dir, 'report.html'), root: dir }, io),
    ).toBe(0);
    const { info, answers } = readReport(await readFile(join(dir, 'report.html'), 'utf8'));
    expect(info).toMatchObject({ run: id, home: `/runs/${id}?filter=failing` });
    const store = await openStore(join(dir, 'store'));
    try {
      const ui = new UiData(store);
      expect(answers.get(`/api/runs/${id}`)).toEqual(await ui.detail(id));
      expect(answers.get(`/api/compare?current=${id}`)).toEqual(await ui.compare(id));
      expect(answers.get(`/api/runs/${id}/trials`)).toEqual(await ui.trials(id));
      // The trend ends with the run: the four runs after it are left out of its report.
      const all = await ui.trends(30);
      const trend = answers.get('/api/trends?last=30') as typeof all;
      expect(trend.runs).toEqual(all.runs.slice(0, 2));
      expect(trend.series.map((s) => s.means)).toEqual(all.series.map((s) => s.means.slice(0, 2)));
      expect((answers.get(`/api/runs/${id}`) as RunDetail).gate?.rows[0]).toMatchObject({
        status: 'regressed',
      });
      // Each workup its checks name, as the UI's route reads it (these were stored without their files: it says so).
      const workups = runs[1]!.checks.map((c) => c.workup).filter((w, i, all) => all.indexOf(w) === i);
      for (const workup of workups)
        expect(answers.get(`/api/runs/${id}/workups/${workup}`)).toEqual(
          (await workupRoute(store.engine, id, workup, null)).body,
        );
      expect([...answers.keys()].sort()).toEqual(
        [
          `/api/runs/${id}`,
          `/api/compare?current=${id}`,
          `/api/runs/${id}/trials`,
          '/api/trends?last=30',
          ...workups.map((w) => `/api/runs/${id}/workups/${w}`),
        ].sort(),
      );
    } finally {
      await store.close();
    }
  }, 60_000);
});

describe('the report of a run as it ran', () => {
  const checks = [
    record(
      checkMeta({
        spec: 'refund-bot',
        specKind: 'cases',
        specFile: '/p/needles/refunds.cases.yaml',
        place: { line: 3, column: 12 },
        case: 'change-flight',
        casePlace: { line: 5, column: 5 },
        workup: 'w',
        criterion: 'max-steps',
        value: 9,
        verdict: 'fail',
      }),
      'failed',
    ),
    record(checkMeta({ spec: 'matcher', workup: 'w', criterion: 'grounded' })),
    record(undefined, 'passed'),
    record(undefined, 'failed'),
  ];
  const run = buildTrendRun(checks, {}, new Date(0), undefined, '/p');

  it('names where each check of a spec file is written (file:line:column from the root); a matcher check names none', async () => {
    const answers = await answersOf({ run, records: checks, root: '/p' });
    const detail = answers.get(`/api/runs/${run.id}`) as RunDetail;
    expect(detail.checks.map((c) => [c.criterion, c.place, c.casePlace])).toEqual([
      ['grounded', undefined, undefined],
      ['max-steps', 'needles/refunds.cases.yaml:3:12', 'needles/refunds.cases.yaml:5:5'],
    ]);
  });

  it('tells apart the places of checks of one workup and criterion by their spec, case and trial', async () => {
    const at = (spec: string, line: number, extra: Partial<CheckMeta> = {}) =>
      record(
        checkMeta({
          spec,
          specKind: 'cases',
          specFile: `/p/needles/${spec}.cases.yaml`,
          place: { line, column: 7 },
          workup: 'w',
          workupPath: '/p/runs/w',
          criterion: 'tool-calls',
          ...extra,
        }),
      );
    const records = [
      at('strict', 4, { case: 'c1' }),
      at('strict', 9, { case: 'c2' }),
      at('unordered', 4, { case: 'c1', trial: 1 }),
      at('unordered', 14, { case: 'c1', trial: 2 }),
      at('unordered', 19, { case: 'c2' }),
    ];
    const placed = buildTrendRun(records, {}, new Date(0), undefined, '/p');
    const answers = await answersOf({ run: placed, records, root: '/p' });
    const detail = answers.get(`/api/runs/${placed.id}`) as RunDetail;
    expect(detail.checks.map((c) => [c.spec, c.case, c.trial, c.place])).toEqual([
      ['strict', 'c1', undefined, 'needles/strict.cases.yaml:4:7'],
      ['strict', 'c2', undefined, 'needles/strict.cases.yaml:9:7'],
      ['unordered', 'c1', 1, 'needles/unordered.cases.yaml:4:7'],
      ['unordered', 'c1', 2, 'needles/unordered.cases.yaml:14:7'],
      ['unordered', 'c2', undefined, 'needles/unordered.cases.yaml:19:7'],
    ]);
  });

  it('lists its plain Vitest tests, failing first, and counts them on the run', async () => {
    const answers = await answersOf({ run, records: checks, root: '/p' });
    expect((answers.get(`/api/runs/${run.id}`) as RunDetail).tests).toEqual({ total: 2, failed: 1 });
    const tests = answers.get(`/api/runs/${run.id}/tests`) as PlainTests;
    expect(tests.tests.map((t) => [t.state, t.errors])).toEqual([
      ['failed', ['plain broke']],
      ['passed', []],
    ]);
    // Without plain tests the report holds no such answer, and the run counts none.
    const only = checks.slice(0, 2);
    const none = await answersOf({ run: buildTrendRun(only, {}, new Date(0)), records: only });
    expect([...none.keys()].some((k) => k.endsWith('/tests'))).toBe(false);
  });

  it('holds the trend only when the history has runs, and a run that ended after it is not in it', async () => {
    const later = { ...run, id: 'later', time: new Date(1000).toISOString() };
    const { checks: _, trials: __, ...head } = later;
    const overview = { total: 1, runs: [head], series: [] };
    expect([...(await answersOf({ run, trend: Promise.resolve(overview) })).keys()]).not.toContain(
      '/api/trends?last=30',
    );
    const before = { ...head, id: 'before', time: new Date(-1000).toISOString() };
    const trend = (
      await answersOf({ run, trend: Promise.resolve({ total: 2, runs: [before, head], series: [] }) })
    ).get('/api/trends?last=30') as { runs: Array<{ id: string }> };
    expect(trend.runs.map((r) => r.id)).toEqual(['before']);
  });
});

describe('the workups of a report', () => {
  const live = (path: string | undefined, verdict: 'pass' | 'fail', workup = 'agentTest-finds-the-link') =>
    record(
      checkMeta({
        spec: 'matcher',
        specKind: 'matcher',
        workup,
        ...(path ? { workupPath: path } : {}),
        criterion: 'toMatchTrajectory',
        verdict,
      }),
      verdict === 'fail' ? 'failed' : 'passed',
    );

  it('keeps two workups of one id apart by their files (?file=2), each with its own checks', async () => {
    const records = [
      live('w/b/agentTest-finds-the-link', 'fail'),
      live('w/a/agentTest-finds-the-link', 'pass'),
    ];
    const run = buildTrendRun(records, {}, new Date(0), undefined, '/p');
    expect(
      workupRefs(run.checks).map((r) => [r.workup, r.file, r.path, r.checks.map((c) => c.verdict)]),
    ).toEqual([
      ['agentTest-finds-the-link', 1, 'w/a/agentTest-finds-the-link', ['pass']],
      ['agentTest-finds-the-link', 2, 'w/b/agentTest-finds-the-link', ['fail']],
    ]);
    const loaded = new Map<string, LoadedWorkup>([
      ['w/a/agentTest-finds-the-link', { error: 'w/a: no such file or folder' }],
    ]);
    const answers = await answersOf({ run, workup: loadedWorkupAnswer(run, loaded, '/p') });
    const first = answers.get(`/api/runs/${run.id}/workups/agentTest-finds-the-link`) as WorkupAnswer;
    const second = answers.get(`/api/runs/${run.id}/workups/agentTest-finds-the-link?file=2`) as WorkupAnswer;
    expect(first.files).toEqual(['w/a/agentTest-finds-the-link', 'w/b/agentTest-finds-the-link']);
    expect([first.path, first.checks.map((c) => c.verdict)]).toEqual([
      'w/a/agentTest-finds-the-link',
      ['pass'],
    ]);
    expect([second.path, second.checks.map((c) => c.verdict)]).toEqual([
      'w/b/agentTest-finds-the-link',
      ['fail'],
    ]);
    // What could not be read is said, and the checks are still shown.
    expect(first.problem).toEqual({
      kind: 'unreadable',
      message: 'the workup file w/a/agentTest-finds-the-link cannot be read: w/a: no such file or folder',
    });
  });

  it('says a workup with no file was built in memory, and keeps its checks', async () => {
    const records = [live(undefined, 'fail', 'in-memory')];
    const run = buildTrendRun(records, {}, new Date(0));
    const answers = await answersOf({ run, workup: loadedWorkupAnswer(run, new Map(), '/p') });
    const answer = answers.get(`/api/runs/${run.id}/workups/in-memory`) as WorkupAnswer;
    expect(answer.problem?.kind).toBe('no-file');
    expect(answer.checks).toHaveLength(1);
  });

  it('marks exactly the sentences citation recall counts as uncited, sentence by sentence', () => {
    // "A is B." is cited in the first bullet and uncited in the second; the third bullet's first two sentences are
    // covered by its trailing citation and only the last is not.
    const source =
      '# N\n\n- A is B. [cite:g1]\n- A is B.\n- C is D. E is F. [cite:g1] G is H.\n\n## Gaps & caveats\n\n- Nothing cited here.\n';
    const note = parseNote(source);
    const workup: Workup = {
      id: 'w',
      ledger: [{ id: 'g1', store: 's', query: 'q', results: [] }],
      meta: {},
      note,
    };
    const answer = workupAnswer(workup, [], { run: 'r' });
    const marked = answer.note!.sections.flatMap((section) =>
      section.segments.flatMap((segment) =>
        segment.sentences.filter((s) => s.status === 'uncited').map((s) => s.text),
      ),
    );
    const recall = citationRecall(note);
    expect(marked).toEqual(['A is B.', 'G is H.']);
    expect(answer.note!.counts.uncited).toBe(recall.total - recall.covered);
  });

  it("totals a trajectory's steps, and keeps the trajectory's own totals beside them where they differ", () => {
    const step = (id: number, latency: number, tokens: number) => ({
      step_id: id,
      step_type: 'tool_call' as const,
      content: '',
      tool_name: 't',
      tool_input: { id },
      tool_output: null,
      timestamp: null,
      latency_ms: latency,
      tokens_used: tokens,
      error: null,
    });
    const workup = (total_tokens: number, total_latency_ms: number): Workup => ({
      id: 'w',
      ledger: [],
      meta: {},
      trajectory: {
        task_id: 'w',
        task_input: '',
        steps: [step(1, 10, 20), step(2, 15, 20)],
        final_answer: null,
        succeeded: true,
        total_tokens,
        total_latency_ms,
        metadata: {},
      },
    });
    const tally = (w: Workup) => workupAnswer(w, [], { run: 'r' }).tally;
    expect(tally(workup(0, 0))).toMatchObject({
      tokens: 40,
      latencyMs: 25,
      recorded: { tokens: 0, latencyMs: 0 },
    });
    expect(tally(workup(40, 25))?.recorded).toBeUndefined();
    expect(tally(workup(40, 900))?.recorded).toEqual({ latencyMs: 900 });
  });
});
