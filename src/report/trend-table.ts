import { metricMeans, type TrendTableData } from '../history/means.js';
import type { TrendHistory } from '../history/types.js';
import { formatValue } from './format.js';
import { sparkline } from './sparkline.js';
import { stripAnsi } from './text.js';

/** Colour functions the table uses; plain identity functions give plain text. */
export interface TableColors {
  red: (text: string) => string;
  green: (text: string) => string;
  dim: (text: string) => string;
  bold: (text: string) => string;
}

const plain: TableColors = { red: (t) => t, green: (t) => t, dim: (t) => t, bold: (t) => t };

export interface TrendTableOptions {
  /**
   * How many of the most recent runs to show.
   * @default 10
   */
  last?: number;
  colors?: TableColors;
}

/**
 * The trend of a history as text: a row per recent run (pass rate and its change), then a row per spec x criterion
 * with the mean of its metric over the workups in the latest run, its change since the run before, and a sparkline of
 * that mean across the runs shown. Means, not every workup, so a thousand workups still give a table one can read.
 */
export function renderTrendTable(history: TrendHistory, options: TrendTableOptions = {}): string {
  const runs = history.runs.slice(-(options.last ?? 10));
  return renderTrendOverview({ total: history.runs.length, runs, series: metricMeans(runs) }, options);
}

/** The table of `renderTrendTable` from runs and means already gathered (by the results store, in SQL). */
export function renderTrendOverview(data: TrendTableData, options: TrendTableOptions = {}): string {
  const c = options.colors ?? plain;
  const runs = data.runs;
  if (runs.length === 0) return 'No runs recorded yet.';
  const lines: string[] = [c.bold(`Runs (last ${runs.length} of ${data.total})`)];
  const runRows: string[][] = [['run', 'time', 'commit', 'branch', 'pass rate', 'Δ', 'pass', 'fail', 'n/a']];
  runs.forEach((run, i) => {
    const rate = run.summary.passRate;
    const prev = i > 0 ? runs[i - 1]?.summary.passRate : undefined;
    runRows.push([
      run.id,
      run.time.replace('T', ' ').slice(0, 19),
      run.commit?.slice(0, 7) ?? '-',
      run.branch ?? '-',
      rate === null ? 'n/a' : `${(rate * 100).toFixed(1)}%`,
      delta(
        rate === null || prev === undefined || prev === null ? undefined : (rate - prev) * 100,
        false,
        c,
        1,
      ),
      String(run.summary.passed),
      String(run.summary.failed),
      String(run.summary.notApplicable),
    ]);
  });
  for (const line of align(runRows, c)) lines.push(line);
  lines.push(`pass rate ${sparkline(runs.map((run) => run.summary.passRate ?? undefined))}`);

  const series = data.series;
  if (series.length > 0) {
    lines.push('', c.bold('Metrics (mean over workups)'));
    const rows: string[][] = [['spec', 'criterion', 'metric', 'mean', 'Δ', 'trend']];
    for (const s of series) {
      const last = s.means.at(-1);
      const prev = s.means.at(-2);
      rows.push([
        s.spec,
        s.criterion,
        s.metric,
        last === undefined ? 'n/a' : formatValue(last, s.unit),
        delta(last !== undefined && prev !== undefined ? last - prev : undefined, s.lowerIsBetter, c, 3),
        sparkline(s.means),
      ]);
    }
    for (const line of align(rows, c)) lines.push(line);
  }
  return lines.join('\n');
}

function delta(change: number | undefined, lowerIsBetter: boolean, c: TableColors, digits: number): string {
  if (change === undefined) return '';
  const rounded = Number(change.toFixed(digits));
  if (rounded === 0) return c.dim('±0');
  const text = `${rounded > 0 ? '+' : ''}${rounded}`;
  return rounded > 0 !== lowerIsBetter ? c.green(text) : c.red(text);
}

/** Pads columns to their widest cell, measured without colour codes. */
function align(rows: string[][], c: TableColors): string[] {
  const widths: number[] = [];
  for (const row of rows)
    row.forEach((cell, i) => {
      widths[i] = Math.max(widths[i] ?? 0, stripAnsi(cell).length);
    });
  return rows.map((row, r) => {
    const line = row
      .map((cell, i) => cell + ' '.repeat((widths[i] ?? 0) - stripAnsi(cell).length))
      .join('  ')
      .trimEnd();
    return r === 0 ? c.dim(line) : line;
  });
}
