import { UserError } from '../../errors/index.js';
import { formatValue } from '../format.js';
import { findRegressions, type Regression, type RegressionOptions } from './compare.js';
import { readHistory } from './history.js';
import type { TrendRun } from './types.js';

export interface RegressionCheckOptions extends RegressionOptions {
  /** The history whose latest run is checked. */
  history: string;
  /**
   * A history (from another branch, or a saved copy) whose latest run is the baseline. Without it, the run before the
   * latest in `history` is the baseline.
   */
  baseline?: string;
}

export interface RegressionReport {
  /** The run checked: the latest of the history; absent when the history is empty. */
  current?: TrendRun;
  /** The run compared against; absent when there is none (a first run never regresses). */
  baseline?: TrendRun;
  regressions: Regression[];
}

/**
 * Compares the latest run of a history with its baseline. This is the gate behind `needlework trend
 * --fail-on-regression` and `needlework run --baseline/--fail-on-regression`: a non-empty `regressions` means exit 1.
 */
export async function checkRegressions(options: RegressionCheckOptions): Promise<RegressionReport> {
  const history = await readHistory(options.history);
  const current = history.runs.at(-1);
  let baseline: TrendRun | undefined;
  if (options.baseline) {
    const base = await readHistory(options.baseline);
    baseline = base.runs.at(-1);
    if (!baseline)
      throw new UserError({ file: options.baseline, message: 'the baseline history holds no runs' });
  } else {
    baseline = history.runs.at(-2);
  }
  const report: RegressionReport = {
    regressions: current && baseline ? findRegressions(baseline, current, options) : [],
  };
  if (current) report.current = current;
  if (baseline) report.baseline = baseline;
  return report;
}

/** One line per regression: `compound-alpha/guessed traversed: trajectory 0.9 -> 0.5 (-0.4, allowed 0.02)`. */
export function formatRegression(r: Regression): string {
  const what = `${r.spec}/${r.workup} ${r.criterion}: ${r.metric} ${formatValue(r.before, r.unit)} -> ${formatValue(r.after, r.unit)}`;
  if (r.reason === 'verdict') return `${what} (pass became fail)`;
  const sign = r.change > 0 ? '+' : '';
  return `${what} (${sign}${formatValue(r.change)}, allowed ${formatValue(r.allowed)})`;
}
