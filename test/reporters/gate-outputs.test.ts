import { readFile, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkJUnitReporter } from '../../reporters/junit.js';
import { NeedleworkOtelReporter } from '../../reporters/otel.js';
import { NeedleworkSummaryReporter } from '../../reporters/summary.js';
import { type NeedleworkTrendOptions, NeedleworkTrendReporter } from '../../reporters/trend.js';
import { withStore } from '../../src/history/store/open.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { runHistory } from '../../src/report/run-history.js';
import type { Comparison } from '../../src/ui/client/types.js';
import { readReport } from '../../src/ui/report/read.js';
import type { CheckMeta } from '../../src/vitest/meta.js';
import { hasChromium, launchChromium, NO_CHROMIUM } from './browser.mjs';
import {
  checkMeta,
  type GeneratedTest,
  makeProject,
  removeProject,
  runVitest,
  testFileSource,
} from './harness.js';
import { openReport } from './report-page.js';
import { trendCheck, trendRun } from './trend-data.js';

/**
 * A refund bot's two cases over two runs, one trial each (as most users run): `refund-late` passed and now fails,
 * `refund-damaged` failed both times (a known failure), `refund-ok` passes both times with its score down 0.05.
 */
interface Outcome {
  late: boolean;
  damaged: boolean;
  okScore: number;
}

function caseMeta(name: string, criterion: string, pass: boolean, value: number | boolean): CheckMeta {
  return checkMeta({
    spec: 'refunds',
    specKind: 'cases',
    case: name,
    workup: `${name}-run`,
    criterion,
    metric: criterion === 'answer-contains' ? 'contains' : 'f1',
    value,
    threshold: criterion === 'answer-contains' ? undefined : 0.5,
    comparator: criterion === 'answer-contains' ? undefined : '>=',
    verdict: pass ? 'pass' : 'fail',
    summary: pass ? undefined : `the answer does not contain "refund" (${name})`,
  } as Partial<CheckMeta> & Pick<CheckMeta, 'spec' | 'workup' | 'criterion'>);
}

function tests(o: Outcome): GeneratedTest[] {
  const test = (name: string, criterion: string, pass: boolean, value: number | boolean): GeneratedTest => ({
    describe: ['refunds', `${name} › ${name}-run`],
    name: criterion,
    meta: caseMeta(name, criterion, pass, value),
    outcome: pass ? 'pass' : 'fail',
  });
  return [
    test('refund-late', 'answer-contains', o.late, o.late),
    test('refund-damaged', 'answer-contains', o.damaged, o.damaged),
    test('refund-ok', 'answer-f1', true, o.okScore),
  ];
}

const BEFORE: Outcome = { late: true, damaged: false, okScore: 0.9 };
const AFTER: Outcome = { late: false, damaged: false, okScore: 0.85 };

/** The case x criterion pairs an output names as regressed, `refunds/refund-late answer-contains`. */
interface Named {
  terminal: string[];
  junit: string[];
  html: string[];
  summary: string[];
  otel: string[];
  exitCodeOf: { regressed: boolean; unknownFailures: number };
  terminalLines: string[];
  /** Whether the store kept the gate's comparison with the run (for `needlework ui`), and whether it is the gate's. */
  kept: 'none' | 'the gate' | 'another';
}

let root: string;
const sorted = (names: string[]) => [...names].sort();

/**
 * Runs the baseline run, then the current run, each through the trend, JUnit, HTML, summary and OTel reporters, with
 * the same gate options, and reads back what each output of the current run names as regressed.
 */
async function twoRuns(name: string, gate: NeedleworkTrendOptions['gate']): Promise<Named> {
  const store = join(root, `store-${name}`);
  const out = join(root, `out-${name}`);
  await writeFile(join(root, 'refunds.check.mjs'), testFileSource(tests(BEFORE)));
  await runVitest(root, [new NeedleworkTrendReporter({ store })]);
  await new Promise((resolve) => setTimeout(resolve, 5));
  await writeFile(join(root, 'refunds.check.mjs'), testFileSource(tests(AFTER)));
  const trend = new NeedleworkTrendReporter({ store, ...(gate && { gate }) });
  const printed: string[] = [];
  const write = process.stdout.write.bind(process.stdout);
  const spy = vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
    printed.push(String(chunk));
    return true;
  });
  try {
    await runVitest(root, [
      trend,
      new NeedleworkJUnitReporter({ outputFile: join(out, 'junit.xml'), store }),
      new NeedleworkHtmlReporter({ outputFile: join(out, 'report.html'), store }),
      new NeedleworkSummaryReporter({ summaryFile: join(out, 'summary.md'), annotations: false, store }),
      new NeedleworkOtelReporter({ outputFile: join(out, 'otel.json'), store }),
    ]);
  } finally {
    spy.mockRestore();
    void write;
  }
  const terminalLines = printed.join('').split('\n');
  const id = trend.appendedRun ?? '';
  const kept = (await withStore(store, {}, (s) => s.keptComparisons([id]))).get(id);
  const xml = await readFile(join(out, 'junit.xml'), 'utf8');
  const report = readReport(await readFile(join(out, 'report.html'), 'utf8'));
  const compared = report.answers.get(`/api/compare?current=${report.info.run}`) as Comparison;
  const summary = await readFile(join(out, 'summary.md'), 'utf8');
  const otel = JSON.parse(await readFile(join(out, 'otel.json'), 'utf8'));
  const records: Array<{
    eventName: string;
    attributes: Array<{ key: string; value: { stringValue?: string } }>;
  }> = otel.resourceLogs[0].scopeLogs[0].logRecords;
  const attr = (r: (typeof records)[number], key: string) =>
    r.attributes.find((a) => a.key === key)?.value.stringValue;
  return {
    terminal: terminalLines.flatMap((line) => {
      const m = /^needlework: {3}regressed: (.+?): /.exec(line);
      return m ? [m[1]!] : [];
    }),
    junit: [
      ...xml.matchAll(/<testcase classname="needlework\.regression-gate\.([^"]+)" name="([^"]+)"/g),
    ].map((m) => `${m[1]} ${m[2]}`),
    html: compared.rows.filter((r) => r.status === 'regressed').map((r) => `${r.case} ${r.criterion}`),
    summary: [...summary.matchAll(/^\| regressed \| (\S+) \| (\S+) \|/gm)].map((m) => `${m[1]} ${m[2]}`),
    otel: records
      .filter(
        (r) => r.eventName === 'needlework.gate.change' && attr(r, 'needlework.gate.status') === 'regressed',
      )
      .map((r) => `${attr(r, 'needlework.gate.case')} ${attr(r, 'gen_ai.evaluation.name')}`),
    exitCodeOf: {
      regressed: trend.gate?.comparison.counts.regressed !== 0,
      unknownFailures: trend.unknownFailures,
    },
    terminalLines,
    kept: !kept
      ? 'none'
      : JSON.stringify(kept.comparison) === JSON.stringify(trend.gate?.comparison)
        ? 'the gate'
        : 'another',
  };
}

beforeAll(async () => {
  root = await makeProject({ 'refunds.check.mjs': testFileSource(tests(BEFORE)) });
}, 60_000);
afterAll(() => removeProject(root));

const LATE = 'refunds/refund-late answer-contains';
const OK = 'refunds/refund-ok answer-f1';
const DAMAGED = 'refunds/refund-damaged answer-contains';

describe('the change between two runs, told alike by every output', () => {
  const expectAlike = (named: Named, expected: string[]) => {
    for (const output of ['terminal', 'junit', 'html', 'summary', 'otel'] as const)
      expect(sorted(named[output]), `${output}: ${named.terminalLines.join('\n')}`).toEqual(sorted(expected));
  };

  it('the default gate: the one pass-to-fail flip is named everywhere; the known failure is not a regression', async () => {
    const named = await twoRuns('default', undefined);
    expectAlike(named, [LATE]);
    expect(named.exitCodeOf).toEqual({ regressed: true, unknownFailures: 1 });
    // The store keeps the default gate's comparison with the run, for `needlework ui` to show as it is.
    expect(named.kept).toBe('the gate');
    expect(named.terminalLines).toContain(
      'needlework:   note: one trial a side cannot tell a regression from chance: record several trials of each task (workups sharing a meta.task) and the exact test decides (docs/gate.md)',
    );
    expect(named.terminalLines.find((l) => l.startsWith('needlework: vs '))).toMatch(
      /^needlework: vs \S+: 1 regressed, 1 moved; 1 still failing$/,
    );
  }, 120_000);

  it('--tolerance: the score that fell past it regresses too, in every output', async () => {
    const named = await twoRuns('tolerance', { tolerance: 0.02 });
    expectAlike(named, [LATE, OK]);
    // The UI compares with the default gate: a comparison with a tolerance is not kept for it.
    expect(named.kept).toBe('none');
  }, 120_000);

  it('--relative-tolerance: a tolerance given holds values, in every output', async () => {
    expectAlike(await twoRuns('relative', { relativeTolerance: 0.1 }), [LATE, OK]);
  }, 120_000);

  it('--baseline: compared with another store, where refund-damaged passed', async () => {
    const other = join(root, 'main-store');
    await rm(other, { recursive: true, force: true });
    const passing = trendRun(
      1,
      ['refund-late', 'refund-damaged'].map((name) =>
        trendCheck({
          spec: 'refunds',
          case: name,
          workup: `${name}-run`,
          criterion: 'answer-contains',
          metric: 'contains',
          value: true,
          threshold: undefined,
          comparator: undefined,
        }),
      ),
    );
    await withStore(other, {}, (s) => s.append(passing));
    const named = await twoRuns('baseline', { baseline: other });
    expectAlike(named, [LATE, DAMAGED]);
  }, 120_000);
});

describe('the reports of a run share one read of the history', () => {
  it('is read once for all the reporters of a run: one read of the store, one gate', async () => {
    const store = join(root, 'store-default');
    const checks: CheckRecord[] = [];
    const at = new Date();
    const first = runHistory(checks, store, root, at);
    expect(runHistory(checks, store, root, at)).toBe(first);
    // Another run's checks are another read.
    const other = runHistory([], store, root, at);
    expect(other).not.toBe(first);
    expect((await first.charted())?.runs).toHaveLength(2);
    // Asked again, the same read: the store is not read once more.
    expect(first.charted()).toBe(first.charted());
    expect(first.gate()).toBe(first.gate());
    await other.charted();
  });
});

describe('the gate in the HTML report, in a browser', () => {
  it('shows the headline and a compact table, regressed first, above the checks', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const browser = await launchChromium();
    try {
      const page = await openReport(browser, join(root, 'out-default', 'report.html'), {
        width: 1280,
        height: 900,
      });
      expect(await page.isVisible('.gate')).toBe(true);
      expect(await page.textContent('.gate .headline')).toMatch(
        /^vs \S+: 1 regressed, 1 moved; 1 still failing$/,
      );
      expect(await page.textContent('.gate-rows tbody tr:first-child td:first-child')).toBe('regressed');
      expect(await page.textContent('.gate-rows tbody tr:first-child td:nth-child(2)')).toBe(
        'refunds/refund-late',
      );
      // The first failing check is on the first screen with the gate shown.
      const firstFail = await page.locator('.vlist .r-check.v-fail').first().boundingBox();
      expect(firstFail).not.toBeNull();
      expect(firstFail!.y + firstFail!.height).toBeLessThanOrEqual(900);
    } finally {
      await browser.close();
    }
  }, 60_000);
});
