import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestCase, TestModule } from 'vitest/node';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { buildTrendRun } from '../../src/history/entry.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';
import type { CheckMeta } from '../../src/model/check.js';
import type { Workup } from '../../src/model/workup.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { type LoadedWorkup, WorkupPreload } from '../../src/report/workups.js';
import { reportAnswers, type WorkupRef } from '../../src/ui/report/answers.js';
import { renderHtmlPage } from '../../src/ui/report/page.js';
import { loadedWorkupAnswer, preloadedWorkupAnswer } from '../../src/ui/report/workups.js';
import { WorkupAnswersAhead } from '../../src/ui/report/workups-ahead.js';
import { checkMeta, makeProject, removeProject, runVitest } from './harness.js';

const ROOT = '/p';

/** A run of tool calls whose answer and arguments are not all ASCII (the index counts UTF-16 units, not bytes). */
function workupOf(id: string): Workup {
  const calls = [
    { tool: 'search', args: { q: 'café 🧵' } },
    { tool: 'book', args: { id: 7 } },
  ];
  return {
    id,
    ledger: [],
    meta: { path: `runs/${id}`, task: id },
    trajectory: {
      task_id: id,
      task_input: 'Réserve 🧵',
      steps: [
        ...calls.map((c, i) => ({
          step_id: i + 1,
          step_type: 'tool_call' as const,
          content: '',
          tool_name: c.tool,
          tool_input: c.args,
          tool_output: { ok: 'oui ✓' },
          timestamp: null,
          latency_ms: 5,
          tokens_used: 9,
          error: null,
        })),
        {
          step_id: 3,
          step_type: 'answer' as const,
          content: 'Réservé ✓',
          tool_name: null,
          tool_input: null,
          tool_output: null,
          timestamp: null,
          latency_ms: 1,
          tokens_used: 3,
          error: null,
        },
      ],
      final_answer: 'Réservé ✓',
      succeeded: true,
      total_tokens: 21,
      total_latency_ms: 11,
      metadata: {},
    },
  };
}

/** A workup's checks: its calls in order (passing, slim evidence) and an answer check (failing). */
function metasOf(id: string): CheckMeta[] {
  const base = {
    spec: 'bookings',
    specKind: 'cases' as const,
    case: id,
    workup: id,
    workupPath: `runs/${id}`,
    task: id,
  };
  return [
    checkMeta({
      ...base,
      criterion: 'tool-calls',
      metric: 'trajectory_match_strict',
      value: true,
      verdict: 'pass',
      evidence: {
        mode: 'strict',
        args: 'exact',
        calls: 2,
        reference: [
          { tool: 'search', args: { q: 'café 🧵' } },
          { tool: 'book', args: { id: 7 } },
        ],
      },
    }),
    checkMeta({
      ...base,
      criterion: 'answer-equals',
      metric: 'answer_equals',
      value: false,
      verdict: 'fail',
      summary: 'answer equals "Réservé": no',
    }),
  ];
}

const IDS = ['w-b', 'w-a', 'w-c'];

/** A finished test of Vitest, as a reporter sees it. */
function testOf(meta: CheckMeta): TestCase {
  return {
    meta: () => ({ needlework: meta }),
    result: () => ({ state: meta.verdict === 'fail' ? 'failed' : 'passed' }),
  } as unknown as TestCase;
}

/** A collected module of Vitest: a describe per workup (naming its path), with its tests. */
function moduleOf(metas: readonly CheckMeta[]): TestModule {
  const byPath = new Map<string, TestCase[]>();
  for (const meta of metas)
    byPath.set(meta.workupPath!, [...(byPath.get(meta.workupPath!) ?? []), testOf(meta)]);
  const suites = [...byPath].map(([path, tests]) => ({
    meta: () => ({ needleworkWorkup: path }),
    children: { allTests: () => tests.values() },
  }));
  return { children: { allSuites: () => suites.values() } } as unknown as TestModule;
}

const loaded = new Map<string, LoadedWorkup>(IDS.map((id) => [`runs/${id}`, { workup: workupOf(id) }]));
const preload = {
  started: (path: string) => (loaded.has(path) ? Promise.resolve(loaded.get(path)!) : undefined),
  release: () => undefined,
} as unknown as WorkupPreload<LoadedWorkup>;

const turn = () => new Promise((done) => setImmediate(done));

const recordOf = (meta: CheckMeta): CheckRecord => ({
  name: meta.criterion,
  suitePath: [meta.spec, meta.workup],
  fullName: `${meta.spec} > ${meta.workup} > ${meta.criterion}`,
  file: 'bookings.cases.yaml',
  state: meta.verdict === 'fail' ? 'failed' : 'passed',
  durationMs: 1,
  errors: [],
  meta,
});

/**
 * The page of `run`, each workup's answer taken from `ahead` where it has one (else built, as at the end), and how
 * many were taken.
 */
async function page(run: TrendRun, ahead?: WorkupAnswersAhead): Promise<{ html: string; taken: number }> {
  const built = loadedWorkupAnswer(run, loaded, ROOT);
  const info = { run: run.id, title: 't', generatedAt: new Date(0).toISOString(), home: '/' };
  let taken = 0;
  const html = await renderHtmlPage(
    info,
    reportAnswers({
      run,
      root: ROOT,
      workup: async (ref) => {
        const written = ahead?.answer(ref, run.id);
        if (written) taken++;
        return written ?? built(ref);
      },
    }),
  );
  return { html, taken };
}

/** A page's index and the text of its segments. */
function unpacked(html: string): { index: string; segments: string[] } {
  return {
    index: /id="needlework-index">([^<]*)</.exec(html)?.[1] ?? '',
    segments: [...html.matchAll(/id="needlework-answers-\d+">([^<]*)</g)].map((m) =>
      gunzipSync(Buffer.from(m[1]!, 'base64')).toString('utf8'),
    ),
  };
}

/** Feeds `ahead` each module, then each module's tests, and waits until what is ready is written. */
async function feed(ahead: WorkupAnswersAhead, modules: ReadonlyArray<readonly CheckMeta[]>): Promise<void> {
  for (const metas of modules) ahead.noteModule(moduleOf(metas));
  await turn();
  for (const metas of modules) for (const meta of metas) ahead.noteTest(testOf(meta));
  await ahead.written();
}

/** The ref of workup `id` in `run`. */
const refOf = (run: TrendRun, id: string): WorkupRef => {
  const checks = run.checks.filter((c) => c.workup === id);
  return { workup: id, path: `runs/${id}`, files: [`runs/${id}`], file: 1, checks };
};

describe('WorkupAnswersAhead', () => {
  // Two modules (two spec files) check each workup: its calls in one, its answer in the other.
  const metas = IDS.flatMap(metasOf);
  const modules = [
    metas.filter((m) => m.criterion === 'tool-calls'),
    metas.filter((m) => m.criterion !== 'tool-calls'),
  ];
  const run = buildTrendRun(metas.map(recordOf), {}, new Date(0), undefined, ROOT);

  it("writes each workup's answer once its last check ends, and the page is the one built at the end", async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 2);
    await feed(ahead, modules);
    const [written, built] = [await page(run, ahead), await page(run)];
    expect([written.taken, built.taken]).toEqual([IDS.length, 0]);
    // The same answers at the same places of the same segments, with the run's id known only now; byte for byte.
    expect(unpacked(written.html)).toEqual(unpacked(built.html));
    expect(written.html === built.html).toBe(true);
  });

  it('gives each answer once: the page packs it and lets it go', async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 2);
    await feed(ahead, modules);
    expect(ahead.answer(refOf(run, 'w-a'), run.id)).toBeDefined();
    expect(ahead.answer(refOf(run, 'w-a'), run.id)).toBeUndefined();
    expect(ahead.answer(refOf(run, 'w-b'), run.id)).toBeDefined();
  });

  it('writes no more once the page is being built: a workup still waiting is built there', async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 2);
    for (const m of modules) ahead.noteModule(moduleOf(m));
    await turn();
    for (const m of modules) for (const meta of m) ahead.noteTest(testOf(meta));
    ahead.finish();
    await ahead.written();
    for (const id of IDS) expect(ahead.answer(refOf(run, id), run.id)).toBeUndefined();
    const { html, taken } = await page(run, ahead);
    expect(taken).toBe(0);
    expect(html).toBe((await page(run)).html);
  });

  it('writes nothing before every module of the run is collected: a later one may check the workup too', async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 3);
    await feed(ahead, modules);
    for (const id of IDS) expect(ahead.answer(refOf(run, id), run.id)).toBeUndefined();
  });

  it('waits for the last test of each workup, and drops an answer when another check of it ends after', async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 2);
    for (const m of modules) ahead.noteModule(moduleOf(m));
    await turn();
    // Only the calls ended: no workup has all its checks.
    for (const meta of modules[0]!) ahead.noteTest(testOf(meta));
    await ahead.written();
    expect(ahead.answer(refOf(run, 'w-a'), run.id)).toBeUndefined();
    for (const meta of modules[1]!) ahead.noteTest(testOf(meta));
    await ahead.written();
    expect(ahead.answer(refOf(run, 'w-a'), run.id)).toBeDefined();
    // A check no describe declared (a matcher in a plain test) of w-b ends: its answer is built at the end.
    ahead.noteTest(
      testOf(
        checkMeta({ spec: 'm', specKind: 'matcher', workup: 'w-b', workupPath: 'runs/w-b', criterion: 'x' }),
      ),
    );
    await ahead.written();
    expect(ahead.answer(refOf(run, 'w-b'), run.id)).toBeUndefined();
    expect(ahead.answer(refOf(run, 'w-c'), run.id)).toBeDefined();
  });

  it("is not taken where the run's checks of a workup are not those it was written from, or its id names two files", async () => {
    const ahead = new WorkupAnswersAhead(preload, ROOT, 2);
    await feed(ahead, modules);
    const ref = refOf(run, 'w-a');
    const calls = ref.checks.find((c) => c.criterion === 'tool-calls')!;
    const answer = ref.checks.find((c) => c.criterion !== 'tool-calls')!;
    const swap = (from: TrendCheck, to: TrendCheck): WorkupRef => ({
      ...ref,
      checks: ref.checks.map((c) => (c === from ? to : c)),
    });
    // Another verdict, another reason, other evidence, a check fewer, a second file: each is built at the end.
    for (const other of [
      swap(answer, { ...answer, verdict: 'pass' }),
      swap(answer, { ...answer, reason: 'another' }),
      swap(calls, { ...calls, evidence: { ...calls.evidence, calls: 3 } }),
      { ...ref, checks: ref.checks.slice(1) },
      { ...ref, files: ['runs/w-a', 'elsewhere/w-a'] },
    ])
      expect(ahead.answer(other, run.id)).toBeUndefined();
    // Evidence alike but not the same object (a run read back from a store) is the same check.
    expect(
      ahead.answer(swap(calls, { ...calls, evidence: structuredClone(calls.evidence) }), run.id),
    ).toBeDefined();
  });
});

describe('preloadedWorkupAnswer', () => {
  it('reads a workup when its answer is asked for, again if the preload let it go, as loadedWorkupAnswer builds it', async () => {
    const read: string[] = [];
    const preload = new WorkupPreload<LoadedWorkup>(async (path) => {
      read.push(path);
      return loaded.get(path) ?? { error: 'gone' };
    });
    const metas = IDS.flatMap(metasOf);
    const records = metas.map(recordOf);
    const run = buildTrendRun(records, {}, new Date(0), undefined, ROOT);
    const answer = preloadedWorkupAnswer(run, records, preload, ROOT);
    const built = loadedWorkupAnswer(run, loaded, ROOT);
    expect(await answer(refOf(run, 'w-a'))).toEqual(await built(refOf(run, 'w-a')));
    preload.release('runs/w-a');
    expect(await answer(refOf(run, 'w-a'))).toEqual(await built(refOf(run, 'w-a')));
    expect(read).toEqual(['runs/w-a', 'runs/w-a']);
  });
});

describe('the HTML reporter in a Vitest run', () => {
  // Two spec modules check two workup folders, each under a describe that names the folder, as the plugin declares
  // them. One reporter writes the workups' answers as their tests end; the other, which never hears of a test's end,
  // builds them all after the last one. Their pages must be the same.
  let root: string;
  const ahead = new NeedleworkHtmlReporter({ outputFile: 'ahead.html', store: false });
  class AtTheEnd extends NeedleworkHtmlReporter {
    override onTestCaseResult(): void {}
  }
  const atTheEnd = new AtTheEnd({ outputFile: 'end.html', store: false });

  const moduleSource = (criteria: string[], folders: string[]) => {
    const lines = [`import { describe, it } from 'vitest';`, `import { join } from 'node:path';`];
    for (const id of folders) {
      const path = `join(process.cwd(), 'runs', ${JSON.stringify(id)})`;
      lines.push(
        `describe('bookings', () => describe(${JSON.stringify(`${id} › ${id}`)}, { meta: { needleworkWorkup: ${path} } }, () => {`,
      );
      for (const meta of metasOf(id).filter((m) => criteria.includes(m.criterion)))
        lines.push(
          `  it(${JSON.stringify(meta.criterion)}, ({ task }) => { task.meta.needlework = { ...${JSON.stringify(meta)}, workupPath: ${path} };${meta.verdict === 'fail' ? " throw new Error('no');" : ''} });`,
        );
      lines.push('}));');
    }
    return `${lines.join('\n')}\n`;
  };

  beforeAll(async () => {
    const late = checkMeta({ spec: 'm', specKind: 'matcher', workup: 'w-c', criterion: 'toMatch' });
    const files: Record<string, string> = {
      'calls.check.mjs': moduleSource(['tool-calls'], IDS),
      'answers.check.mjs': moduleSource(['answer-equals'], IDS),
      // A plain test's check of w-c, under no describe of it: w-c's answer is built after the tests.
      'late.check.mjs': `import { it } from 'vitest';\nimport { join } from 'node:path';\nit('matches', ({ task }) => { task.meta.needlework = { ...${JSON.stringify(late)}, workupPath: join(process.cwd(), 'runs', 'w-c') }; });\n`,
    };
    for (const id of IDS) files[`runs/${id}/trajectory.json`] = JSON.stringify(workupOf(id).trajectory);
    root = await makeProject(files);
    const cwd = process.cwd();
    process.chdir(root);
    try {
      await runVitest(root, [ahead, atTheEnd]);
    } finally {
      process.chdir(cwd);
    }
  }, 120_000);

  afterAll(() => removeProject(root));

  /** The page's index and answers' text, its run's id and end time put out of the way (each reporter has its own run). */
  async function packed(file: string): Promise<string> {
    const html = await readFile(join(root, file), 'utf8');
    const run = JSON.parse(/id="needlework-report">([^<]*)</.exec(html)![1]!).run as string;
    const text = [...html.matchAll(/id="needlework-answers-\d+">([^<]*)</g)]
      .map((m) => gunzipSync(Buffer.from(m[1]!, 'base64')).toString('utf8'))
      .join('\n');
    const time = /"time":"([^"]+)"/.exec(text)![1]!;
    const index = /id="needlework-index">([^<]*)</.exec(html)![1]!;
    return `${index}\n${text}`
      .replaceAll(run, 'R'.repeat(run.length))
      .replaceAll(time, 'T'.repeat(time.length));
  }

  it("writes every workup's answer while the tests run, and the page is the one built after them", async () => {
    expect(ahead.writtenAhead).toBe(IDS.length - 1);
    expect(atTheEnd.writtenAhead).toBe(0);
    const page = await packed('ahead.html');
    expect(page).toContain('/workups/w-a');
    expect(page).toContain('Réservé ✓');
    expect(page).toBe(await packed('end.html'));
  });
});
