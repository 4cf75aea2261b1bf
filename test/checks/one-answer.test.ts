import { cp, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, TestRunner } from 'vitest';
import { checkWorkup } from '../../src/checks/check-workup.js';
import { runScore } from '../../src/cli/commands/score.js';
import type { Check } from '../../src/model/check.js';
import type { NeedleSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { loadSpecs } from '../../src/specs/load.js';
import type { RunDetail } from '../../src/ui/client/types.js';
import { readReport } from '../../src/ui/report/read.js';
import { loadWorkup } from '../../src/workup/load.js';
import { captureIo } from '../helpers/io.js';
import { needlework } from '../helpers/needlework-run.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const STATE = { pass: 'passed', fail: 'failed', 'not-applicable': 'skipped' } as const;

/** `spec/workup/criterion` to what an output says of it: the verdict, the value and the one-line statement. */
type Said = Record<string, { verdict: string; value?: unknown; summary?: string }>;

function key(c: Pick<Check, 'spec' | 'workup' | 'criterion'>): string {
  return `${c.spec}/${c.workup}/${c.criterion}`;
}

describe('one answer everywhere: every fixture workup, every output', () => {
  let dir: string;
  const score: Said = {};

  beforeAll(async () => {
    // Kept for the whole file (a per-test temporary folder would be gone after the first test).
    dir = await mkdtemp(join(tmpdir(), 'needlework-one-answer-'));
    await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
    await cp(join(ROOT, 'fixtures/workups'), join(dir, 'workups'), { recursive: true });
    const result = await needlework(
      dir,
      'run',
      'workups',
      '--reporter',
      'json',
      '--reporter',
      'needlework-junit',
      '--reporter',
      'needlework-html',
    );
    expect([0, 1]).toContain(result.code);
    for (const name of await readdir(join(dir, 'workups'))) {
      const io = captureIo();
      await runScore({ workup: join(dir, 'workups', name), cwd: dir, json: true }, io);
      for (const c of (JSON.parse(io.stdout()) as { report: { checks: Check[] } }).report.checks) {
        score[key(c)] = { verdict: c.verdict, value: c.value, summary: c.summary! };
      }
    }
    expect(Object.keys(score).length).toBeGreaterThan(60);
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it('the YAML tests: each check is a test whose outcome is its verdict', async () => {
    const report = JSON.parse(await readFile(join(dir, 'needlework-report/results.json'), 'utf8')) as {
      testResults: Array<{
        assertionResults: Array<{ ancestorTitles: string[]; title: string; status: string }>;
      }>;
    };
    const tests: Record<string, string> = {};
    for (const t of report.testResults.flatMap((f) => f.assertionResults)) {
      if (t.ancestorTitles.length !== 2) continue;
      tests[`${t.ancestorTitles.join('/')}/${t.title.replace(/ /g, '-')}`] = t.status;
    }
    const rubricless = Object.fromEntries(Object.entries(tests).filter(([k]) => !k.startsWith('icd-203/')));
    expect(rubricless).toEqual(
      Object.fromEntries(Object.entries(score).map(([k, s]) => [k, STATE[s.verdict as keyof typeof STATE]])),
    );
  });

  it('JUnit: each test case states the same verdict, value and summary', async () => {
    const xml = await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8');
    const junit: Said = {};
    for (const m of xml.matchAll(/<system-out><!\[CDATA\[([\s\S]*?)\]\]><\/system-out>/g)) {
      const field = (name: string) => new RegExp(`^${name}:\\s+(.*)$`, 'm').exec(m[1]!)?.[1];
      const spec = field('spec')!.split(' ')[0]!;
      if (spec === 'icd-203') continue;
      junit[`${spec}/${field('workup')!.split(' ')[0]}/${field('criterion')}`] = {
        verdict: field('verdict')!,
        summary: field('summary')!,
      };
    }
    expect(junit).toEqual(
      Object.fromEntries(
        Object.entries(score).map(([k, s]) => [k, { verdict: s.verdict, summary: s.summary }]),
      ),
    );
  });

  it('the HTML report: its embedded data holds the same checks', async () => {
    const { info, answers } = readReport(await readFile(join(dir, 'needlework-report/report.html'), 'utf8'));
    const detail = answers.get(`/api/runs/${info.run}`) as RunDetail;
    const shown: Said = {};
    for (const c of detail.checks) {
      if (c.spec === 'icd-203') continue;
      shown[key(c)] = {
        verdict: c.verdict,
        value: c.value,
        ...(c.reason !== undefined && { summary: c.reason }),
      };
    }
    expect(Object.keys(shown).sort()).toEqual(Object.keys(score).sort());
    for (const [k, s] of Object.entries(score)) {
      expect(shown[k]!.verdict, k).toBe(s.verdict);
      expect(shown[k]!.value ?? null, k).toEqual(s.value ?? null);
      // The report shows the check's own summary as its reason.
      expect(shown[k]!.summary, k).toBe(s.summary);
    }
  });

  it('the matchers: a hand-written assertion records the check the engine decides, count for count', async () => {
    const { needles } = await loadSpecs(join(ROOT, 'needles'));
    const bridge = needles.find((n) => n.id === 'compound-alpha-bridge')!;
    const calls: Array<[string, (w: Workup, n: NeedleSpec) => void]> = [
      ['surfaced', (w, n) => expect(w).toSurface(n)],
      ['traversed', (w, n) => expect(w).toTraverse(n.required_path)],
      ['grounded', (w, n) => expect(w).toBeGrounded(n)],
      ['citations-resolve', (w) => expect(w).toHaveResolvableCitations()],
      ['citation-recall', (w) => expect(w).toHaveCitationRecall(1)],
      ['supporting-facts', (w, n) => expect(w).toHaveSupportingFactF1(n)],
      ['pivot-burden', (w, n) => expect(w).toHavePivotBurdenAtMost(n)],
    ];
    for (const name of ['grounded', 'guessed', 'uncited', 'unsupported', 'dangling']) {
      const workup = await loadWorkup(join(ROOT, 'fixtures/workups', name));
      const engine = Object.fromEntries((await checkWorkup(workup, [bridge])).map((c) => [c.criterion, c]));
      for (const [criterion, assert] of calls) {
        try {
          assert(workup, bridge);
        } catch {
          // a failed assertion records its check too
        }
        const recorded = TestRunner.getCurrentTest()!.meta.needlework!;
        const decided = engine[criterion]!;
        expect(
          { criterion: recorded.criterion, value: recorded.value, summary: recorded.summary },
          `${name} ${criterion}`,
        ).toEqual({
          criterion: decided.criterion,
          value: decided.value,
          summary: decided.summary,
        });
        // Not applicable fails an explicit assertion; otherwise the verdicts agree.
        if (decided.verdict !== 'not-applicable')
          expect(recorded.verdict, `${name} ${criterion}`).toBe(decided.verdict);
      }
    }
  });
});
