import { formatValue } from '../checks/format.js';
import { UserError } from '../errors/index.js';
import { significant } from '../metrics/stats/stratified.js';
import { findRegressions, type Regression, type RegressionOptions } from './compare.js';
import { describeScope, scopeKey } from './scope.js';
import {
  type CaseDrop,
  type CaseRef,
  type CriterionComparison,
  caseLabel,
  compareRuns,
  pairCases,
  type SignificanceOptions,
} from './significance.js';
import { openSource } from './store/open.js';
import type { RunFilter, RunSource } from './store/source.js';
import type { TrendRun } from './types.js';

export interface RegressionCheckOptions extends RegressionOptions, SignificanceOptions {
  /** Where the checked run is: a store (folder or server URL) or a trend.json export. */
  history: string;
  /** The run checked, by id; without it, the latest run of `history`. */
  current?: string;
  /**
   * A store or trend.json (from another branch, or a saved copy) whose latest run of the same scope is the baseline.
   * Without it the baseline is, in `history`: for a pull request's run (one that names its base branch), the latest
   * run of the same scope on the base branch; otherwise the latest earlier run of the same scope on the same branch.
   */
  baseline?: string;
  /** The folder relative paths are resolved against. @default process.cwd() */
  root?: string;
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
  /**
   * The cases (spec x case x task) only one of the two runs holds: not compared, reported apart. Empty without a
   * baseline.
   */
  cases: { added: CaseRef[]; removed: CaseRef[] };
  /** The branch the baseline was looked for on, when it was looked for on one. */
  branch?: string;
}

/**
 * The baseline of `current` in `source`: the latest run of the same scope (full with full, a partial run only with a
 * partial run of the same filters) on the pull request's base branch when the run names one (the latest full run of
 * main for a pull request into main), else the latest earlier one on the run's own branch (main's previous run for a
 * run on main), else the latest earlier one. Also counts the runs passed over for their scope.
 */
export async function findBaseline(
  source: RunSource,
  current: TrendRun,
): Promise<{ run?: TrendRun; skipped: number; branch?: string }> {
  const key = scopeKey(current.scope);
  const branch = current.baseBranch ?? current.branch;
  const where: RunFilter = current.baseBranch
    ? { branch: current.baseBranch, excludeId: current.id }
    : { before: current, ...(branch !== undefined && { branch }) };
  const run = await source.latest({ ...where, scopeKey: key });
  const skipped = await source.count({ ...where, notScopeKey: key, ...(run && { after: run }) });
  return { ...(run && { run }), skipped, ...(branch !== undefined && { branch }) };
}

/**
 * Compares a run (the latest of a store or trend.json, or the one named by id) with its baseline (see
 * `findBaseline`, or the latest run of the same scope in `baseline`). This is the gate behind `needlework trend
 * --fail-on-regression` and `needlework run --baseline/--fail-on-regression`: `failed(report)` means exit 1.
 */
export async function checkRegressions(options: RegressionCheckOptions): Promise<RegressionReport> {
  const method = options.method ?? 'significance';
  const root = options.root ?? process.cwd();
  const report: RegressionReport = {
    method,
    regressions: [],
    comparisons: [],
    otherScopes: 0,
    cases: { added: [], removed: [] },
  };
  const source = await openSource(options.history, root);
  let current: TrendRun | undefined;
  let found: { run?: TrendRun; skipped: number; branch?: string };
  try {
    current = options.current ? await source.run(options.current) : await source.latest();
    if (!current) return report;
    if (options.baseline) {
      const other = await openSource(options.baseline, root);
      try {
        if ((await other.count()) === 0)
          throw new UserError({ file: options.baseline, message: 'the baseline history holds no runs' });
        const key = scopeKey(current.scope);
        const run = await other.latest({ scopeKey: key, excludeId: current.id });
        found = {
          ...(run && { run }),
          skipped: await other.count({ notScopeKey: key, ...(run && { after: run }) }),
        };
      } finally {
        await other.close();
      }
    } else found = await findBaseline(source, current);
  } finally {
    await source.close();
  }
  report.current = current;
  report.otherScopes = found.skipped;
  if (found.branch !== undefined) report.branch = found.branch;
  const baseline = found.run;
  if (!baseline) return report;
  report.baseline = baseline;
  report.cases = pairCases(baseline, current);
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
  const branch = run.branch ? ` on ${run.branch}` : '';
  return `run ${run.id}${commit}${branch}${scope}`;
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
const TEST_NAMES = {
  exact: 'exact conditional test, stratified by case',
  cmh: 'Cochran-Mantel-Haenszel test, stratified by case',
} as const;
const CASE_TEST_NAMES = { exact: "Fisher's exact test", cmh: 'Mantel-Haenszel z-test' } as const;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One line per spec x criterion, saying what the gate concluded and on what evidence, over the cases both runs hold:
 * `compound-alpha grounded: regressed: pass rate 24/30 (80%) -> 15/30 (50%) over 3 cases, p = 0.012
 * (Cochran-Mantel-Haenszel test, stratified by case)`, and the cases of the criterion only one run holds.
 */
export function formatComparison(c: CriterionComparison): string {
  const parts: string[] = [];
  const { before: a, after: b } = c;
  if (c.passRate) {
    const p = c.status === 'improved' ? c.passRate.pRise : c.passRate.pDrop;
    parts.push(
      `pass rate ${a.passes}/${a.trials} (${percent(a.rate)}) -> ${b.passes}/${b.trials} (${percent(b.rate)}) over ${plural(c.cases, 'case')}, p ${pValue(p)} (${TEST_NAMES[c.passRate.test]})`,
    );
  }
  if (c.difference && a.mean !== undefined && b.mean !== undefined) {
    const d = c.difference;
    parts.push(
      `${c.metric} mean ${formatValue(a.mean, c.unit)} -> ${formatValue(b.mean, c.unit)}, mean change per case ${Math.round(d.confidence * 100)}% interval [${formatValue(d.low, c.unit)}, ${formatValue(d.high, c.unit)}]`,
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
  const apart = formatCaseChanges(c.added, c.removed, 0);
  const tail = apart ? `; ${apart}` : '';
  switch (c.status) {
    case 'regressed':
      return `${what}: regressed: ${evidence}${tail}`;
    case 'improved':
      return `${what}: improved: ${evidence}${tail}`;
    case 'flaky':
      return `${what}: flaky (passes in some trials and fails in others on ${c.flakyTasks.length === 1 ? 'case' : 'cases'} ${c.flakyTasks.join(', ')}); no significant change: ${evidence}${smallest}${tail}`;
    default:
      return `${what}: no change detectable at this sample size: ${evidence}${smallest}${tail}`;
  }
}

/**
 * The cases of a comparison to name one by one: every case that dropped when the criterion regressed, and otherwise
 * those whose own drop is significant at the comparison's level (so no case that fell hard is hidden by others).
 * Most significant first.
 */
export function casesToName(c: CriterionComparison): CaseDrop[] {
  return c.status === 'regressed'
    ? c.droppedCases
    : c.droppedCases.filter((d) => significant(d.pDrop, c.level));
}

/** One dropped case: `refund-policy: 10/10 (100%) -> 0/10 (0%), p < 0.001 (Fisher's exact test)`. */
export function formatCaseDrop(d: CaseDrop): string {
  const { before: a, after: b } = d;
  const rate = (x: { trials: number; passes: number }) => percent(x.trials ? x.passes / x.trials : null);
  return `${caseLabel(d)}: ${a.passes}/${a.trials} (${rate(a)}) -> ${b.passes}/${b.trials} (${rate(b)}), p ${pValue(d.pDrop)} (${CASE_TEST_NAMES[d.test]})`;
}

/**
 * The cases only one run holds, in words, or `undefined` when there are none:
 * `3 cases added, 1 removed (not compared): added a, b, c; removed d`. At most `max` of each are named; with `max` 0,
 * only the counts: `3 cases added, 1 removed (not compared)`.
 */
export function formatCaseChanges(
  added: readonly CaseRef[],
  removed: readonly CaseRef[],
  max = 10,
): string | undefined {
  if (added.length === 0 && removed.length === 0) return undefined;
  const names = (refs: readonly CaseRef[]) => {
    const shown = refs.slice(0, max).map((r) => `${r.spec}/${caseLabel(r)}`);
    return refs.length > max ? `${shown.join(', ')} and ${refs.length - max} more` : shown.join(', ');
  };
  const counts =
    added.length && removed.length
      ? `${plural(added.length, 'case')} added, ${removed.length} removed`
      : added.length
        ? `${plural(added.length, 'case')} added`
        : `${plural(removed.length, 'case')} removed`;
  if (max === 0) return `${counts} (not compared)`;
  const lists = [
    added.length ? `added ${names(added)}` : '',
    removed.length ? `removed ${names(removed)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `${counts} (not compared): ${lists}`;
}
