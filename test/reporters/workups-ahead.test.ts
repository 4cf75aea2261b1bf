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
import { type LoadedWorkup, WorkupPreload, workupLoader } from '../../src/report/workups.js';
import { WorkupAnswerWriter, type WriteRequest } from '../../src/ui/report/answer-writer.js';
import { answerWriting } from '../../src/ui/report/answer-writing.js';
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

/** A preload of the workups above, which counts what it reads. */
function preloadOf(read: string[] = []): WorkupPreload<LoadedWorkup> {
  return new WorkupPreload(async (path) => {
    read.push(path);
    return loaded.get(path) ?? { error: `${path} is not there` };
  });
}

/** Answers written ahead, in this process. */
const ahead = (modules: number, read?: string[]) =>
  new WorkupAnswersAhead(ROOT, modules, new WorkupAnswerWriter(preloadOf(read)));

type Written = Awaited<ReturnType<WorkupAnswersAhead['finish']>>;

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
 * The page of `run`, each workup's answer taken from those `written` ahead where there is one (else built, as at the
 * end), and how many were taken.
 */
async function page(run: TrendRun, written?: Written): Promise<{ html: string; taken: number }> {
  const built = loadedWorkupAnswer(run, loaded, ROOT);
  const info = { run: run.id, title: 't', generatedAt: new Date(0).toISOString(), home: '/' };
  let taken = 0;
  const html = await renderHtmlPage(
    info,
    reportAnswers({
      run,
      root: ROOT,
      workup: async (ref) => {
        const answer = written?.(ref, run.id);
        if (answer) taken++;
        return answer ?? built(ref);
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

/** Feeds `ahead` each module, then each module's tests, as Vitest does. */
async function feed(to: WorkupAnswersAhead, modules: ReadonlyArray<readonly CheckMeta[]>): Promise<void> {
  for (const metas of modules) to.noteModule(moduleOf(metas));
  await turn();
  for (const metas of modules) for (const meta of metas) to.noteTest(testOf(meta));
  await turn();
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
    const read: string[] = [];
    const writing = ahead(2, read);
    await feed(writing, modules);
    // Each workup read once, when its module was collected.
    expect(read.sort()).toEqual(IDS.map((id) => `runs/${id}`).sort());
    const [written, built] = [await page(run, await writing.finish()), await page(run)];
    expect([written.taken, built.taken]).toEqual([IDS.length, 0]);
    // The same answers at the same places of the same segments, with the run's id known only now; byte for byte.
    expect(unpacked(written.html)).toEqual(unpacked(built.html));
    expect(written.html === built.html).toBe(true);
  });

  it('gives each answer once: the page packs it and lets it go', async () => {
    const writing = ahead(2);
    await feed(writing, modules);
    const written = await writing.finish();
    expect(written(refOf(run, 'w-a'), run.id)).toBeDefined();
    expect(written(refOf(run, 'w-a'), run.id)).toBeUndefined();
    expect(written(refOf(run, 'w-b'), run.id)).toBeDefined();
  });

  it('asks for no more once the page is being built: a workup whose last check ends after is built there', async () => {
    const writing = ahead(2);
    for (const m of modules) writing.noteModule(moduleOf(m));
    await turn();
    for (const meta of modules[0]!) writing.noteTest(testOf(meta));
    for (const meta of modules[1]!.filter((m) => m.workup !== 'w-c')) writing.noteTest(testOf(meta));
    // w-a and w-b are complete, asked for and written in full before `finish` resolves, though not at this turn.
    const finishing = writing.finish();
    for (const meta of modules[1]!.filter((m) => m.workup === 'w-c')) writing.noteTest(testOf(meta));
    const written = await finishing;
    expect(['w-a', 'w-b', 'w-c'].map((id) => written(refOf(run, id), run.id) !== undefined)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('writes nothing before every module of the run is collected: a later one may check the workup too', async () => {
    const writing = ahead(3);
    await feed(writing, modules);
    const written = await writing.finish();
    for (const id of IDS) expect(written(refOf(run, id), run.id)).toBeUndefined();
  });

  it('waits for the last test of each workup, and leaves to the end one whose check ends after it was written', async () => {
    const writing = ahead(2);
    for (const m of modules) writing.noteModule(moduleOf(m));
    await turn();
    // Only the calls ended: no workup has all its checks yet.
    for (const meta of modules[0]!) writing.noteTest(testOf(meta));
    await turn();
    for (const meta of modules[1]!) writing.noteTest(testOf(meta));
    await turn();
    // A check no describe declared (a matcher in a plain test) of w-b ends after its answer was asked for.
    const late = checkMeta({
      spec: 'm',
      specKind: 'matcher',
      workup: 'w-b',
      workupPath: 'runs/w-b',
      criterion: 'x',
    });
    writing.noteTest(testOf(late));
    const written = await writing.finish();
    const all = buildTrendRun([...metas, late].map(recordOf), {}, new Date(0), undefined, ROOT);
    expect(['w-a', 'w-b', 'w-c'].map((id) => written(refOf(all, id), all.id) !== undefined)).toEqual([
      true,
      false,
      true,
    ]);
  });

  it("is not taken where the run's checks of a workup are not those it was written from, or its id names two files", async () => {
    const writing = ahead(2);
    await feed(writing, modules);
    const written = await writing.finish();
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
      expect(written(other, run.id)).toBeUndefined();
    // Evidence alike but not the same object (a run read back from a store) is the same check.
    expect(
      written(swap(calls, { ...calls, evidence: structuredClone(calls.evidence) }), run.id),
    ).toBeDefined();
  });
});

describe('preloadedWorkupAnswer', () => {
  it('reads a workup when its answer is asked for, again if the preload let it go, as loadedWorkupAnswer builds it', async () => {
    const read: string[] = [];
    const preload = preloadOf(read);
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

  it('writes the answers in a thread of their own (once built), the very bytes it would write in this process', async () => {
    // Many answers of the three workups (each under many ids), more than one chunk of them.
    const metas = IDS.flatMap(metasOf).map((m) => ({ ...m, workupPath: join(root, 'runs', m.workup) }));
    const run = buildTrendRun(metas.map(recordOf), {}, new Date(0), undefined, root);
    const requests: WriteRequest[] = [];
    for (let k = 0; k < 400; k++)
      for (const id of IDS)
        requests.push({
          path: join(root, 'runs', id),
          named: `runs/${id}`,
          answers: [{ workup: `${id}#${k}`, checks: run.checks.filter((c) => c.workup === id) }],
        });
    const thread = answerWriting(root);
    expect(thread).not.toBeInstanceOf(WorkupAnswerWriter);
    thread.read(IDS.map((id) => join(root, 'runs', id)));
    thread.write(requests);
    const local = new WorkupAnswerWriter(workupLoader(root));
    local.write(requests);
    const [there, here] = [await thread.finish(), await local.finish()];
    expect(there.size).toBe(requests.length);
    expect([...here.values()].reduce((n, t) => n + t.bytes.length, 0)).toBeGreaterThan(1024 * 1024);
    for (const [key, text] of here) {
      expect(there.get(key)?.length, key).toBe(text.length);
      expect(there.get(key)?.bytes.equals(text.bytes), key).toBe(true);
    }
  });

  it("writes every workup's answer while the tests run, and the page is the one built after them", async () => {
    expect(ahead.writtenAhead).toBe(IDS.length - 1);
    expect(atTheEnd.writtenAhead).toBe(0);
    const page = await packed('ahead.html');
    expect(page).toContain('/workups/w-a');
    expect(page).toContain('Réservé ✓');
    expect(page).toBe(await packed('end.html'));
  });
});
