import { UserError } from '../../errors/index.js';
import { formatValue } from '../format.js';
import { findRegressions, type Regression, type RegressionOptions } from './compare.js';
import { readHistory } from './history.js';
import { describeScope, scopeKey } from './scope.js';
import { type CriterionComparison, compareRuns, type SignificanceOptions } from './significance.js';
import type { TrendRun } from './types.js';

export interface RegressionCheckOptions extends RegressionOptions, SignificanceOptions {
  /** The history whose latest run is checked. */
  history: string;
  /**
   * A history (from another branch, or a saved copy) whose latest run of the same scope is the baseline. Without it,
   * the latest earlier run of the same scope in `history` is the baseline.
   */
  baseline?: string;
  /**
   * `significance`: flag a criterion only when its drop is significant at `level` (see `compareRuns`);
   * `tolerance`: flag any check whose value fell by more than a fixed tolerance (see `findRegressions`).
   * @default 'significance'
   */
  method?: 'significance' | 'tolerance';
}

export interface RegressionReport {
  method: 'significance' | 'tolerance';
  /** The run checked: the latest of the history; absent when the history is empty. */
  current?: TrendRun;
  /** The run compared against; absent when there is none of the same scope (a first run never regresses). */
  baseline?: TrendRun;
  /** With the `tolerance` method: the checks that fell past their tolerance. */
  regressions: Regression[];
  /** With the `significance` method: every spec x criterion of both runs, with its status. */
  comparisons: CriterionComparison[];
  /** How many earlier runs were passed over as a baseline because their scope differs from the current run's. */
  otherScopes: number;
}

/** The latest run of `runs` whose scope is the scope of `current`, and how many later runs of another scope it skipped. */
function latestAlike(runs: readonly TrendRun[], current: TrendRun): { run?: TrendRun; skipped: number } {
  const key = scopeKey(current.scope);
  let skipped = 0;
  for (let i = runs.length - 1; i >= 0; i--) {
    const run = runs[i] as TrendRun;
    if (scopeKey(run.scope) === key) return { run, skipped };
    skipped++;
  }
  return { skipped };
}

/**
 * Compares the latest run of a history with its baseline: the latest earlier run of the same scope (full with full,
 * a partial run only with a partial run of the same filters). This is the gate behind `needlework trend
 * --fail-on-regression` and `needlework run --baseline/--fail-on-regression`: `failed(report)` means exit 1.
 */
export async function checkRegressions(options: RegressionCheckOptions): Promise<RegressionReport> {
  const method = options.method ?? 'significance';
  const history = await readHistory(options.history);
  const current = history.runs.at(-1);
  const report: RegressionReport = { method, regressions: [], comparisons: [], otherScopes: 0 };
  if (!current) return report;
  report.current = current;
  let candidates = history.runs.slice(0, -1);
  if (options.baseline) {
    candidates = (await readHistory(options.baseline)).runs;
    if (candidates.length === 0)
      throw new UserError({ file: options.baseline, message: 'the baseline history holds no runs' });
  }
  const { run: baseline, skipped } = latestAlike(candidates, current);
  report.otherScopes = skipped;
  if (!baseline) return report;
  report.baseline = baseline;
  if (method === 'tolerance') report.regressions = findRegressions(baseline, current, options);
  else report.comparisons = compareRuns(baseline, current, options);
  return report;
}

/** Whether the report holds a regression: a check past its tolerance, or a criterion whose drop is significant. */
export function hasRegression(report: RegressionReport): boolean {
  return report.regressions.length > 0 || report.comparisons.some((c) => c.status === 'regressed');
}

/** The baseline in words: `run 20261122T030100Z-00000001 (abc1234)`, and its scope when the run was partial. */
export function describeBaseline(run: TrendRun): string {
  const commit = run.commit ? ` (${run.commit.slice(0, 7)})` : '';
  const scope = run.scope.kind === 'partial' ? `, ${describeScope(run.scope)}` : '';
  return `run ${run.id}${commit}${scope}`;
}

/** One line per regression: `compound-alpha/guessed traversed: trajectory 0.9 -> 0.5 (-0.4, allowed 0.02)`. */
export function formatRegression(r: Regression): string {
  const what = `${r.spec}/${r.workup} ${r.criterion}: ${r.metric} ${formatValue(r.before, r.unit)} -> ${formatValue(r.after, r.unit)}`;
  if (r.reason === 'verdict') return `${what} (pass became fail)`;
  const sign = r.change > 0 ? '+' : '';
  return `${what} (${sign}${formatValue(r.change)}, allowed ${formatValue(r.allowed)})`;
}

const percent = (rate: number | null): string => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);
const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`);
const TEST_NAMES = { fisher: "Fisher's exact test", z: 'two-proportion z-test' } as const;

/**
 * One line per spec x criterion, saying what the gate concluded and on what evidence:
 * `compound-alpha grounded: regressed: pass rate 24/30 (80%) -> 15/30 (50%), p = 0.012 (two-proportion z-test)`.
 */
export function formatComparison(c: CriterionComparison): string {
  const parts: string[] = [];
  const { before: a, after: b } = c;
  if (c.passRate) {
    const p = c.status === 'improved' ? c.passRate.pRise : c.passRate.pDrop;
    parts.push(
      `pass rate ${a.passes}/${a.trials} (${percent(a.rate)}) -> ${b.passes}/${b.trials} (${percent(b.rate)}), p ${pValue(p)} (${TEST_NAMES[c.passRate.test]})`,
    );
  }
  if (c.difference && a.mean !== undefined && b.mean !== undefined) {
    const d = c.difference;
    parts.push(
      `${c.metric} mean ${formatValue(a.mean, c.unit)} -> ${formatValue(b.mean, c.unit)}, difference ${Math.round(d.confidence * 100)}% interval [${formatValue(d.low, c.unit)}, ${formatValue(d.high, c.unit)}]`,
    );
  }
  const evidence = parts.join('; ');
  const what = `${c.spec} ${c.criterion}`;
  const smallest =
    c.detectableDrop === null
      ? c.passRate
        ? '; no drop in pass rate is detectable with this many trials'
        : ''
      : `; the smallest drop detectable is ${Math.round(c.detectableDrop * 100)} points`;
  switch (c.status) {
    case 'regressed':
      return `${what}: regressed: ${evidence}`;
    case 'improved':
      return `${what}: improved: ${evidence}`;
    case 'flaky':
      return `${what}: flaky (passes in some trials and fails in others on ${c.flakyTasks.length === 1 ? 'task' : 'tasks'} ${c.flakyTasks.join(', ')}); no significant change: ${evidence}${smallest}`;
    default:
      return `${what}: no change detectable at this sample size: ${evidence}${smallest}`;
  }
}
