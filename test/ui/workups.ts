import { cpSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { checkWorkup } from '../../src/checks/check-workup.js';
import { buildTrendRun, type RecordedCheck, summarize, trendTrials } from '../../src/history/entry.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';
import type { Check } from '../../src/model/check.js';
import { makeStep, makeTrajectory } from '../../src/model/trajectory.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/index.js';
import { loadSpec, parseSpec } from '../../src/specs/load.js';
import { loadWorkup, loadWorkupLines } from '../../src/workup/load.js';
import { saveWorkup } from '../../src/workup/save.js';
import { HOSTILE } from './history.js';

const ROOT = new URL('../../', import.meta.url).pathname;

/** The steps of the long workup: 1,000 tool calls, each answered. */
export const LONG_STEPS = 2_000;

/**
 * A task case of a booking run: it expects `search {city: Paris}`, `book` and `pay`, in any order. The run of it logs in
 * first, books before it searches and never pays, and writes agent text (markup, script) everywhere it can: tool
 * arguments and results, an error, the note, a ledger query.
 */
const CASES = `id: trips
cases:
  - id: book-trip
    workups: [book]
    expect:
      tool_calls:
        match: unordered
        args: ignore
        calls:
          - { name: search, args: { city: Paris } }
          - { name: book }
          - { name: pay }
  - id: long-trip
    workups: [long]
    expect:
      tool_calls:
        match: superset
        args: ignore
        calls:
          - { name: fetch }
`;

function booking(): Workup {
  const steps = [
    makeStep({ step_id: 1, step_type: 'thought', content: `plan: ${HOSTILE}` }),
    makeStep({ step_id: 2, step_type: 'tool_call', tool_name: 'login', tool_input: {}, content: '{}' }),
    makeStep({ step_id: 3, step_type: 'observation', tool_name: 'login', tool_output: 'ok' }),
    makeStep({
      step_id: 4,
      step_type: 'tool_call',
      tool_name: 'book',
      tool_input: { flight: HOSTILE },
      content: JSON.stringify({ flight: HOSTILE }),
    }),
    makeStep({
      step_id: 5,
      step_type: 'observation',
      tool_name: 'book',
      tool_output: { booked: HOSTILE },
      error: `refused: ${HOSTILE}`,
    }),
    makeStep({
      step_id: 6,
      step_type: 'tool_call',
      tool_name: 'search',
      tool_input: { city: 'Paris' },
      content: '{"city":"Paris"}',
    }),
    makeStep({ step_id: 7, step_type: 'observation', tool_name: 'search', tool_output: 'flight AF1' }),
    makeStep({ step_id: 8, step_type: 'answer', content: 'Booked AF1.' }),
  ];
  const note = `# Booking\n\n## Summary\n\nThe flight AF1 leaves Paris at nine. [cite:g1]\n\n## Findings\n\n- The fare is ${HOSTILE}. [cite:g9]\n- The seat is 12A.\n`;
  return {
    id: 'book',
    note: parseNote(note, { file: 'note.md' }),
    ledger: [
      {
        id: 'g1',
        store: 'flights',
        query: `search(${HOSTILE})`,
        results: [{ subject: 'AF1', relation: 'DEPARTS_FROM', object: 'Paris' }],
      },
    ],
    trajectory: makeTrajectory({
      task_id: 'book',
      task_input: 'Book a flight to Paris',
      steps,
      final_answer: 'Booked AF1.',
    }),
    meta: { task: 'book-trip' },
  };
}

function long(): Workup {
  const steps = Array.from({ length: LONG_STEPS }, (_, i) =>
    i % 2 === 0
      ? makeStep({
          step_id: i + 1,
          step_type: 'tool_call',
          tool_name: i % 10 === 0 ? 'fetch' : 'read',
          tool_input: { page: i / 2 },
          content: `{"page": ${i / 2}}`,
          tokens_used: 10,
        })
      : makeStep({
          step_id: i + 1,
          step_type: 'observation',
          tool_output: `page ${(i - 1) / 2}: ${'lorem ipsum '.repeat(8)}`,
          error: i === LONG_STEPS - 1 ? 'timeout' : null,
        }),
  );
  return { id: 'long', ledger: [], trajectory: makeTrajectory({ task_id: 'long', steps }), meta: {} };
}

/** A stored check of `workup` naming `workupPath` as written: what a run of another machine could hold. */
function named(workup: string, workupPath: string): TrendCheck {
  return {
    spec: 'paths',
    workup,
    workupPath,
    criterion: 'reads',
    metric: 'reads',
    value: true,
    verdict: 'pass',
    state: 'passed',
  };
}

export interface WorkupProject {
  root: string;
  run: TrendRun;
}

/**
 * A project in `dir`/project whose run checked four workups written under runs/ (`book`, `long`, and the fixtures
 * `grounded` and `single-file`, the second line of a *.workups.jsonl file, against the Compound-Alpha needle), and whose store also names workups it must never read: a path up and
 * out of the root, an absolute path elsewhere, a link leading out, and one that is gone.
 */
export async function workupProject(dir: string): Promise<WorkupProject> {
  const root = join(dir, 'project');
  mkdirSync(join(root, 'runs'), { recursive: true });
  const book = booking();
  const longRun = long();
  await saveWorkup(book, join(root, 'runs', 'book'));
  await saveWorkup(longRun, join(root, 'runs', 'long'));
  cpSync(join(ROOT, 'fixtures/workups/grounded'), join(root, 'runs', 'grounded'), { recursive: true });
  // A workup outside the project, and a link to it from inside.
  cpSync(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'outside', 'secret'), { recursive: true });
  symlinkSync(join(dir, 'outside', 'secret'), join(root, 'runs', 'link'));
  writeFileSync(join(dir, 'outside', 'passwd'), 'root:x:0:0:root:/root:/bin/bash\n');

  const spec = parseSpec(CASES, join(root, 'trips.cases.yaml'));
  const needle = await loadSpec(join(ROOT, 'needles/compound-alpha.needle.yaml'));
  const checks: Check[] = [];
  for (const name of ['book', 'long']) {
    const workup = await loadWorkup(join(root, 'runs', name));
    checks.push(...(await checkWorkup(workup, [spec])));
  }
  checks.push(...(await checkWorkup(await loadWorkup(join(root, 'runs', 'grounded')), [needle])));
  // A workup that is one line of a *.workups.jsonl file, named `file:line`.
  const single = JSON.parse(readFileSync(join(ROOT, 'fixtures/workups/single-file.workup.json'), 'utf8'));
  writeFileSync(
    join(root, 'runs', 'all.workups.jsonl'),
    `${JSON.stringify({ ...single, id: 'other' })}\n${JSON.stringify(single)}\n`,
  );
  const [, line] = (await loadWorkupLines(join(root, 'runs', 'all.workups.jsonl'))).workups;
  checks.push(...(await checkWorkup(line!, [needle])));
  const records: RecordedCheck[] = checks.map((meta) => ({
    meta,
    state: meta.verdict === 'fail' ? 'failed' : 'passed',
  }));
  const run = buildTrendRun(
    records,
    { branch: 'main', commit: 'f'.repeat(40) },
    new Date(Date.now() + 1_000),
    { kind: 'full' },
    root,
  );
  run.checks.push(
    named('passwd', '../outside/passwd'),
    named('etc', '../../../../../../../../etc/passwd'),
    named('abs', '/etc/passwd'),
    named('link', 'runs/link'),
    named('gone', 'runs/gone'),
  );
  run.summary = summarize(run.checks);
  run.trials = trendTrials(run.checks);
  return { root, run };
}

/** Criteria names as long as real ones: what the matrix's headers must fit standing on end. */
const CRITERIA = [
  'tool-calls',
  'must-call',
  'must-not-call',
  'max-calls',
  'call-order',
  'answer-contains',
  'answer-exact-match',
  'step-precision',
  'step-recall',
  'citation-recall-at-least-one',
];

/**
 * A realistic run for the matrix: 4 specs x 10 criteria (40 columns) over 60 cases, each case a task of 3 trials
 * (some mixed), one case named with agent text.
 */
export function matrixRun(minute = 30): TrendRun {
  const checks: TrendCheck[] = [];
  for (let s = 0; s < 4; s++)
    for (let c = 0; c < 60; c++)
      for (let t = 1; t <= 3; t++)
        for (const [k, criterion] of CRITERIA.entries()) {
          const fails = (c * 7 + k * 3 + s) % 11 === 0 || (k === 2 && c % 9 === 0 && t === 2);
          checks.push({
            spec: `suite-${['support', 'billing', 'travel-booking', 'research'][s]}`,
            case: c === 0 ? `refund ${HOSTILE}` : `case-${String(c).padStart(2, '0')}`,
            workup: `w-${s}-${c}-${t}`,
            task: `task-${c}`,
            trial: t,
            criterion,
            metric: criterion.replace(/-/g, '_'),
            value: !fails,
            verdict: fails ? 'fail' : 'pass',
            state: fails ? 'failed' : 'passed',
          });
        }
  const time = new Date(Date.UTC(2026, 10, 23, 3, minute)).toISOString();
  return {
    id: `${time.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z')}-${minute.toString(16).padStart(8, '0')}`,
    time,
    branch: 'matrix',
    scope: { kind: 'full' },
    summary: summarize(checks),
    checks,
    trials: trendTrials(checks),
  };
}
