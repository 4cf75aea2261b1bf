import { checkValue, thresholdText } from '../checks/format.js';
import { plural } from '../io/plural.js';
import type { CitationRecall, CitationResolution } from '../metrics/citations/index.js';
import type { TradecraftReport } from '../metrics/tradecraft/index.js';
import type { PairScores } from '../metrics/trajectory/index.js';
import type { Check } from '../model/check.js';
import { weightedTotal } from '../rubric/aggregate.js';
import { colors, type Io } from './io.js';

/** The seed 002 trajectory metrics of a workup against its gold trajectory. */
export interface TrajectoryScores extends PairScores {
  /** The gold trajectory's `task_id`. */
  gold: string;
  trajectorySimilarity: number;
}

/**
 * What `needlework score` found on one workup, and its `--json` output: the checks of every spec (the verdicts, as
 * `checkWorkup` decides them and a Vitest run of the same specs shows them), and the measurements that carry no
 * verdict of their own (citations, the tradecraft lint, the trajectory metrics).
 */
export interface ScoreReport {
  workup: string;
  /** The folder or file the workup was loaded from. */
  path?: string;
  /** Every check of every spec, in spec then criterion order. */
  checks: Check[];
  /** Citation resolution (null value when the workup has no note). */
  resolution: CitationResolution;
  /** Structural citation recall; null when the workup has no note. */
  citationRecall: CitationRecall | null;
  /** The ICD 203 lint; null when the workup has no note. */
  tradecraft: TradecraftReport | null;
  /** The trajectory metrics, when the workup has a trajectory and a gold one; otherwise why not (absent when neither). */
  trajectory?: TrajectoryScores | { reason: string };
}

/**
 * `pass` and `fail` are checks against a threshold; `warn` is advisory (the tradecraft lint) and never fails;
 * `info` has no threshold; `n/a` means the metric does not apply to this workup (see its reason), never a failure.
 */
export type LineStatus = 'pass' | 'fail' | 'warn' | 'info' | 'n/a';

/** One line of the scorecard: a metric, its value, the threshold it is held to and whether it met it. */
export interface ScorecardLine {
  /** What the line belongs to: `citations`, `tradecraft`, `needle <id>`, `trajectory`. */
  group: string;
  metric: string;
  /** The value as printed (`0.75`, `yes`, `5 queries, 3 hops`, `n/a`). */
  value: string;
  /** The threshold as printed (`>= 1.00`, `<= 20`, `yes`); empty when there is none. */
  threshold: string;
  status: LineStatus;
  /** Evidence: what failed and where, or why the metric does not apply. */
  detail?: string;
}

const fixed = (x: number): string => x.toFixed(2);
const where = (p: { line: number; column: number }) => `${p.line}:${p.column}`;
const STATUS: Record<Check['verdict'], LineStatus> = { pass: 'pass', fail: 'fail', 'not-applicable': 'n/a' };

/** A check as a scorecard line: formatted, never judged again. */
export function checkLine(check: Check): ScorecardLine {
  return {
    group: `${check.specKind} ${check.spec}`,
    metric: check.criterion.replace(/-/g, ' '),
    value: checkValue(check),
    threshold: thresholdText(check),
    status: STATUS[check.verdict],
    ...(check.summary && { detail: check.summary }),
  };
}

/**
 * The scorecard of a report, in a fixed order: citations (measured only, when no spec checks them), the tradecraft
 * lint (advisory, seed 001: it warns and never fails), each check of each spec (and a judged rubric's weighted total),
 * then the trajectory metrics (no thresholds). Only checks pass or fail.
 */
export function scorecardLines(report: ScoreReport): ScorecardLine[] {
  const lines: ScorecardLine[] = [];
  if (report.checks.length === 0) lines.push(...citationLines(report));
  if (report.tradecraft) lines.push(...tradecraftLines(report.tradecraft));
  // One line per check, however many: a spread of 100,000 into push() would overflow the stack.
  return lines.concat(
    report.checks.map(checkLine),
    rubricTotals(report.checks),
    trajectoryLines(report.trajectory),
  );
}

/** Each judged rubric's weighted total, from its criteria's checks: a measurement (the criteria carry verdicts). */
function rubricTotals(checks: readonly Check[]): ScorecardLine[] {
  const bySpec = new Map<string, Check[]>();
  for (const check of checks) {
    if (check.specKind !== 'rubric' || check.verdict === 'not-applicable') continue;
    bySpec.set(check.spec, [...(bySpec.get(check.spec) ?? []), check]);
  }
  return [...bySpec].map(([spec, criteria]) => {
    const total = weightedTotal(
      criteria.map((c) => ({
        score: typeof c.value === 'number' ? c.value : null,
        weight: c.scores?.['weight'] ?? 1,
      })),
    );
    return {
      group: `rubric ${spec}`,
      metric: 'weighted total',
      value: total === null ? 'n/a' : total.toFixed(2),
      threshold: '',
      status: total === null ? 'n/a' : 'info',
    };
  });
}

function info(group: string, metric: string, value: string, detail?: string): ScorecardLine {
  return { group, metric, value, threshold: '', status: 'info', ...(detail && { detail }) };
}

function citationLines(report: ScoreReport): ScorecardLine[] {
  const r = report.resolution;
  const cr = report.citationRecall;
  return [
    info(
      'citations',
      'every citation resolves',
      r.value === null ? 'n/a' : r.value ? 'yes' : 'no',
      r.value === false
        ? `dangling: ${r.dangling.map((d) => `${d.id} at line ${where(d.position)}`).join(', ')}`
        : r.reason,
    ),
    info(
      'citations',
      'citation recall (structural)',
      cr?.value == null ? 'n/a' : fixed(cr.value),
      !cr
        ? 'the workup has no note'
        : cr.uncited.length > 0
          ? `uncited: ${cr.uncited.map((u) => `line ${u.line} "${u.text.trim()}"`).join('; ')}`
          : (cr.reason ?? `${cr.covered}/${cr.total} claim sentences cited`),
    ),
  ];
}

function tradecraftLines(t: TradecraftReport): ScorecardLine[] {
  const bands = t.likelihood.map(
    (h) => `${h.text} (${h.band.range.map((x) => `${Math.round(x * 100)}`).join('-')}%) ${where(h)}`,
  );
  const warn = (line: ScorecardLine, when: boolean): ScorecardLine =>
    when ? { ...line, status: 'warn' } : line;
  return [
    warn(
      info(
        'tradecraft',
        'ICD 203 likelihood terms',
        String(t.likelihood.length),
        t.likelihoodStated ? bands.join(', ') : 'no ICD 203 likelihood term in any claim',
      ),
      !t.likelihoodStated,
    ),
    warn(
      info(
        'tradecraft',
        'analytic confidence stated',
        t.confidenceStated ? 'yes' : 'no',
        t.confidenceStated
          ? t.confidence.map((h) => `${h.level} ${where(h)}`).join(', ')
          : 'no low, moderate or high confidence stated',
      ),
      !t.confidenceStated,
    ),
    warn(
      info(
        'tradecraft',
        'non-standard hedges',
        String(t.hedges.length),
        t.hedges.map((h) => `"${h.text}" ${where(h)} (use ${h.suggestion})`).join(', '),
      ),
      t.hedges.length > 0,
    ),
    warn(
      info(
        'tradecraft',
        'likelihood/confidence confusions',
        String(t.confusions.length),
        t.confusions.map((h) => `"${h.text}" ${where(h)}: ${h.message}`).join(', '),
      ),
      t.confusions.length > 0,
    ),
  ];
}

function trajectoryLines(tj: ScoreReport['trajectory']): ScorecardLine[] {
  if (!tj) return [];
  if ('reason' in tj) {
    return [{ ...info('trajectory', 'trajectory metrics', 'n/a', tj.reason), status: 'n/a' }];
  }
  const rows: Array<[string, number]> = [
    ['step precision', tj.stepPrecision],
    ['step recall', tj.stepRecall],
    ['step F1', tj.stepF1],
    ['tool efficiency', tj.toolEfficiency],
    ['redundancy rate', tj.redundancyRate],
    ['error recovery rate', tj.errorRecoveryRate],
    ['similarity (difflib ratio)', tj.trajectorySimilarity],
  ];
  return rows.map(([metric, value]) => info('trajectory', metric, fixed(value), `against ${tj.gold}`));
}

/** Whether any line failed its threshold (warnings and n/a never fail). */
export function scorecardFailed(lines: readonly ScorecardLine[]): boolean {
  return lines.some((line) => line.status === 'fail');
}

/**
 * The scorecard as text: a heading per group, then one aligned line per metric (status, metric, value, threshold,
 * detail), and a summary. Coloured when `io.color` is set, plain otherwise (the words carry the meaning).
 */
export function formatScorecard(
  title: string,
  lines: readonly ScorecardLine[],
  io: Pick<Io, 'color'>,
): string {
  const c = colors(io as Io);
  const paint: Record<LineStatus, (s: string) => string> = {
    pass: c.green,
    fail: c.red,
    warn: c.yellow,
    info: c.dim,
    'n/a': c.dim,
  };
  const metricWidth = Math.max(0, ...lines.map((l) => l.metric.length));
  const valueWidth = Math.max(0, ...lines.map((l) => l.value.length));
  const thresholdWidth = Math.max(0, ...lines.map((l) => l.threshold.length));
  const out: string[] = [c.bold(title)];
  let group: string | undefined;
  for (const line of lines) {
    if (line.group !== group) {
      group = line.group;
      out.push('', `  ${c.bold(group)}`);
    }
    const row = [
      paint[line.status](line.status.padEnd(4)),
      line.metric.padEnd(metricWidth),
      line.value.padEnd(valueWidth),
      line.threshold.padEnd(thresholdWidth),
    ].join('  ');
    out.push(`    ${row}${line.detail ? `  ${c.dim(line.detail)}` : ''}`.trimEnd());
  }
  const count = (status: LineStatus) => lines.filter((l) => l.status === status).length;
  const failed = count('fail');
  const summary = `${count('pass')} passed, ${failed} failed, ${plural(count('warn'), 'warning')}, ${count('n/a')} not applicable`;
  out.push('', failed > 0 ? c.red(summary) : c.green(summary));
  return out.join('\n');
}
