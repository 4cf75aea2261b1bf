import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkJUnitReporter } from '../../reporters/junit.js';
import { NeedleworkSummaryReporter } from '../../reporters/summary.js';
import { withStore } from '../../src/history/store/open.js';
import type { CheckRecord } from '../../src/report/checks.js';
import { runHistory } from '../../src/report/run-history.js';
import { markdownCell } from '../../src/report/summary/escape.js';
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
import { trendCheck, trendRun } from './trend-data.js';

const CASES = ['case-1', 'case-7'];
const DROP = 'case-7: 10/10 (100%) -> 0/10 (0%), p < 0.001 (Mantel-Haenszel z-test)';
const APART = '1 case added (not compared): added flights/new-case';

/** Trial i (1-based) of a case of the `flights` task-cases spec, its tool calls passing or not. */
function trialMeta(name: string, i: number, pass: boolean): CheckMeta {
  return checkMeta({
    spec: 'flights',
    specKind: 'cases',
    case: name,
    workup: `${name}-${i}`,
    task: name,
    trial: i,
    criterion: 'tool-calls',
    metric: 'match',
    value: pass,
    threshold: undefined,
    comparator: undefined,
    verdict: pass ? 'pass' : 'fail',
  } as Partial<CheckMeta> & Pick<CheckMeta, 'spec' | 'workup' | 'criterion'>);
}

let root: string;
let BASELINE_ID: string;
beforeAll(async () => {
  // The current run: case-7 fell from 10 of 10 trials to 0 of 10, case-1 held, and a case was added.
  const tests: GeneratedTest[] = [];
  for (const name of [...CASES, 'new-case'])
    for (let i = 1; i <= 10; i++) {
      const pass = name !== 'case-7';
      tests.push({
        describe: ['flights', `${name} › ${name}-${i}`],
        name: 'tool-calls',
        meta: trialMeta(name, i, pass),
        outcome: pass ? 'pass' : 'fail',
      });
    }
  root = await makeProject({ 'flights.check.mjs': testFileSource(tests) });
  // The baseline in the store: every trial of both cases passed.
  const baseline = trendRun(
    1,
    CASES.flatMap((name) =>
      Array.from({ length: 10 }, (_, k) =>
        trendCheck({
          spec: 'flights',
          case: name,
          workup: `${name}-${k + 1}`,
          task: name,
          trial: k + 1,
          criterion: 'tool-calls',
          metric: 'match',
          value: true,
        }),
      ),
    ),
  );
  const store = join(root, 'store');
  BASELINE_ID = baseline.id;
  await withStore(store, {}, (s) => s.append(baseline));
  await runVitest(root, [
    new NeedleworkJUnitReporter({ outputFile: 'junit.xml', store }),
    new NeedleworkHtmlReporter({ outputFile: 'report.html', store }),
    new NeedleworkSummaryReporter({ summaryFile: 'summary.md', annotations: false, store }),
  ]);
}, 120_000);
afterAll(() => removeProject(root));

describe('the regression gate in every report of a run', () => {
  it('JUnit: a suite of its own whose properties name the criterion, each dropped case and the cases apart', async () => {
    const xml = await readFile(join(root, 'junit.xml'), 'utf8');
    const suite = xml.slice(xml.indexOf('<testsuite name="needlework.regression-gate"'));
    // The attribute's text, its XML escapes read back.
    const property = (name: string) =>
      new RegExp(`<property name="${name.replaceAll('.', '\\.')}" value="([^"]*)"/>`)
        .exec(suite)?.[1]
        ?.replaceAll('&lt;', '<')
        .replaceAll('&quot;', '"')
        .replaceAll('&amp;', '&');
    expect(property('needlework.gate.counts')).toBe(
      '1 regressed, 0 improved, 0 flaky, 0 no change detectable.',
    );
    expect(property('needlework.gate.cases')).toBe(APART);
    expect(property('flights.tool-calls.gate')).toMatch(/^flights tool-calls: regressed: pass rate 20\/20/);
    expect(property('flights.tool-calls.dropped.1')).toBe(DROP);
    expect(property('flights.tool-calls.dropped.2')).toBeUndefined();
  });

  it('HTML: the same lines in the gate section of the page data', async () => {
    const html = await readFile(join(root, 'report.html'), 'utf8');
    const open = '<script type="application/json" id="needlework-data">';
    const start = html.indexOf(open) + open.length;
    const data = JSON.parse(html.slice(start, html.indexOf('</script>', start)));
    expect(data.gate.apart).toBe(APART);
    expect(data.gate.criteria).toEqual([
      expect.objectContaining({
        status: 'regressed',
        spec: 'flights',
        criterion: 'tool-calls',
        drops: [DROP],
      }),
    ]);
    expect(html).toContain('<section id="gate-section" class="hidden"><h2>Regression gate</h2>');
    // The charts come from the same read of the store as the gate: the baseline is the one run it holds.
    expect(data.trend.runs.map((r: { id: string }) => r.id)).toEqual([BASELINE_ID]);
  });

  it('is read once for all the reporters of a run: one read of the store, one gate', async () => {
    const checks: CheckRecord[] = [];
    const at = new Date();
    const first = runHistory(checks, join(root, 'store'), root, at);
    expect(runHistory(checks, join(root, 'store'), root, at)).toBe(first);
    // Another run's checks are another read.
    const other = runHistory([], join(root, 'store'), root, at);
    expect(other).not.toBe(first);
    expect((await first.charted())?.runs.map((r) => r.id)).toEqual([BASELINE_ID]);
    // Asked again, the same read: the store is not read once more.
    expect(first.charted()).toBe(first.charted());
    expect(first.gate()).toBe(first.gate());
    await other.charted();
  });

  it('HTML in a browser: the gate section is shown, each dropped case under its criterion', async (ctx) => {
    if (!hasChromium) return ctx.skip(NO_CHROMIUM);
    const browser = await launchChromium();
    try {
      const page = await browser.newPage();
      await page.goto(`file://${join(root, 'report.html')}`);
      expect(await page.isVisible('#gate-section')).toBe(true);
      expect(await page.textContent('#gate ul.gate li ul li')).toBe(`\u2193 ${DROP}`);
      expect(await page.textContent('#gate ul.gate li .badge')).toBe('regressed');
    } finally {
      await browser.close();
    }
  });

  it('the job summary: the same lines, as Markdown', async () => {
    const summary = await readFile(join(root, 'summary.md'), 'utf8');
    expect(summary).toContain(`\n${markdownCell(APART)}\n`);
    expect(summary).toContain(`  - ↓ ${markdownCell(DROP)}`);
  });
});
