import { cp, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { runScore } from '../../src/cli/commands/score.js';
import { captureIo } from '../helpers/io.js';
import { needlework, outcomes } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const GROUNDED = join(ROOT, 'fixtures/workups/grounded');
const tmp = useTmpDir();

const RELATION_PATHS = [
  ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'],
  ['MEMBER_OF', 'CO_LOCATED'],
  ['TRAVELED_TO'],
];
const FACTS = [
  '{ subject: Halberd, relation: MEMBER_OF, object: Ash Cell }',
  '{ subject: Ash Cell, relation: CO_LOCATED, object: Compound-Alpha }',
  '{ subject: Wren, relation: CO_LOCATED, object: Compound-Alpha }',
  '{ subject: Halberd, relation: TRAVELED_TO, object: Depot-Seven }',
];

/** A needle over the fixture world with generated answer, path, required facts and thresholds. */
const needle = fc.record({
  answer: fc.constantFrom('Compound-Alpha', 'Wren', 'Depot-Seven', 'Port Sable'),
  path: fc.constantFrom(...RELATION_PATHS),
  from: fc.option(fc.constantFrom('Halberd', 'Wren'), { nil: undefined }),
  cites: fc.subarray(FACTS),
  citationRecall: fc.constantFrom(0.5, 0.8, 1),
  supportingF1: fc.option(fc.constantFrom(0.5, 0.8, 1), { nil: undefined }),
  pivot: fc.option(fc.constantFrom(2, 5, 20), { nil: undefined }),
  precision: fc.option(fc.constantFrom(0.5, 1), { nil: undefined }),
});

/** The grounded fixture run with ledger entries dropped, note lines dropped and citations altered. */
const workup = fc.record({
  keepEntries: fc.array(fc.boolean(), { minLength: 7, maxLength: 7 }),
  keepLines: fc.array(fc.boolean(), { minLength: 30, maxLength: 30 }),
  citation: fc.constantFrom('keep', 'drop', 'dangle'),
  note: fc.boolean(),
});

type NeedleCase = typeof needle extends fc.Arbitrary<infer T> ? T : never;
type WorkupCase = typeof workup extends fc.Arbitrary<infer T> ? T : never;

function needleYaml(id: string, n: NeedleCase): string {
  return [
    `id: ${id}`,
    `answer: ${n.answer}`,
    'required_path:',
    `  relations: [${n.path.join(', ')}]`,
    ...(n.from ? [`  from: ${n.from}`] : []),
    ...(n.cites.length > 0 ? ['required_cites:', ...n.cites.map((f) => `  - ${f}`)] : []),
    'thresholds:',
    `  citation_recall: ${n.citationRecall}`,
    ...(n.supportingF1 !== undefined ? [`  supporting_fact_f1: ${n.supportingF1}`] : []),
    ...(n.pivot !== undefined ? [`  pivot_burden: ${n.pivot}`] : []),
    ...(n.precision !== undefined ? [`  precision: ${n.precision}`] : []),
    '',
  ].join('\n');
}

async function writeWorkup(dir: string, w: WorkupCase): Promise<void> {
  await mkdir(dir, { recursive: true });
  const ledger = (await readFile(join(GROUNDED, 'provenance.jsonl'), 'utf8')).trim().split('\n');
  await writeFile(join(dir, 'provenance.jsonl'), `${ledger.filter((_, i) => w.keepEntries[i]).join('\n')}\n`);
  if (!w.note) return;
  const lines = (await readFile(join(GROUNDED, 'note.md'), 'utf8')).split('\n');
  const note = lines
    .filter((line, i) => line.startsWith('#') || w.keepLines[i % 30])
    .map((line) =>
      w.citation === 'drop'
        ? line.replace(/ \[cite:g4\]/g, '')
        : w.citation === 'dangle'
          ? line.replace(/cite:g5/g, 'cite:g99')
          : line,
    );
  await writeFile(join(dir, 'note.md'), note.join('\n'));
}

const STATUS = { pass: 'passed', fail: 'failed', 'not-applicable': 'skipped' } as const;

describe('one verdict everywhere', () => {
  let dir: string;
  let workupIds: string[];

  beforeAll(async () => {
    dir = await tmp();
    await mkdir(join(dir, 'needles'));
    const [needles, workups] = fc.sample(
      fc.tuple(
        fc.array(needle, { minLength: 4, maxLength: 4 }),
        fc.array(workup, { minLength: 12, maxLength: 12 }),
      ),
      { numRuns: 1, seed: 20261122 },
    )[0]!;
    for (const [i, n] of needles.entries()) {
      await writeFile(join(dir, 'needles', `n${i}.needle.yaml`), needleYaml(`n${i}`, n));
    }
    workupIds = workups.map((_, i) => `w${i}`);
    for (const [i, w] of workups.entries()) await writeWorkup(join(dir, 'workups', `w${i}`), w);
    await cp(join(GROUNDED, 'trajectory.json'), join(dir, 'workups/w0/trajectory.json'));
  });

  it('score --json gives, check for check, the outcome of the Vitest test of the same spec and workup', async () => {
    const vitest = await needlework(dir, 'run', 'workups', '--reporter', 'json');
    expect([0, 1]).toContain(vitest.code);
    const tests = await outcomes(join(dir, 'needlework-report/results.json'));

    const scored: string[] = [];
    for (const id of workupIds) {
      const io = captureIo();
      await runScore({ workup: join(dir, 'workups', id), cwd: dir, json: true }, io);
      const report = JSON.parse(io.stdout()) as {
        report: {
          checks: Array<{ spec: string; workup: string; criterion: string; verdict: keyof typeof STATUS }>;
        };
      };
      for (const c of report.report.checks)
        scored.push(`${c.spec} > ${c.workup} > ${c.criterion.replace(/-/g, ' ')}: ${STATUS[c.verdict]}`);
    }
    expect(scored.sort()).toEqual(tests);
    // The generated data reach every verdict, so the comparison is not vacuous.
    for (const status of ['passed', 'failed', 'skipped'])
      expect(tests.some((t) => t.endsWith(status))).toBe(true);
    // Every spec x workup pair made tests (at least the seven criteria every needle has).
    expect(tests.length).toBeGreaterThanOrEqual(4 * workupIds.length * 7);
  });
});
