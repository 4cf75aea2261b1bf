import type { CitationRecall, CitationResolution } from '../metrics/citations/index.js';
import type { NeedleScore } from '../metrics/needle/index.js';
import type { TradecraftReport } from '../metrics/tradecraft/index.js';
import type { NeedleSpec } from '../model/spec.js';
import { colors, type Io } from './io.js';

/** The seed 002 trajectory metrics of a workup against its gold trajectory. */
export interface TrajectoryScores {
  /** The gold trajectory's `task_id`. */
  gold: string;
  stepPrecision: number;
  stepRecall: number;
  stepF1: number;
  toolEfficiency: number;
  redundancyRate: number;
  errorRecoveryRate: number;
  trajectorySimilarity: number;
}

/** Every deterministic score of one workup: what `needlework score` prints, and its `--json` output. */
export interface ScoreReport {
  workup: string;
  /** The folder or file the workup was loaded from. */
  path?: string;
  /** Citation resolution (null value when the workup has no note). */
  resolution: CitationResolution;
  /** Structural citation recall; null when the workup has no note. */
  citationRecall: CitationRecall | null;
  /** The ICD 203 lint; null when the workup has no note. */
  tradecraft: TradecraftReport | null;
  /** Each needle scored, with the spec whose thresholds apply. */
  needles: Array<{ spec: NeedleSpec; score: NeedleScore }>;
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
const plural = (n: number, one: string, many: string): string => `${n} ${n === 1 ? one : many}`;

function atLeast(
  group: string,
  metric: string,
  value: number | null,
  reason: string | undefined,
  min: number | undefined,
  detail?: string,
): ScorecardLine {
  if (value === null)
    return { group, metric, value: 'n/a', threshold: '', status: 'n/a', detail: reason ?? '' };
  const line: ScorecardLine = {
    group,
    metric,
    value: fixed(value),
    threshold: min === undefined ? '' : `>= ${fixed(min)}`,
    status: min === undefined ? 'info' : value >= min ? 'pass' : 'fail',
  };
  const why = detail ?? reason;
  if (why) line.detail = why;
  return line;
}

function yesNo(
  group: string,
  metric: string,
  value: boolean | null,
  reason: string | undefined,
  want?: boolean,
) {
  if (value === null) {
    return {
      group,
      metric,
      value: 'n/a',
      threshold: '',
      status: 'n/a',
      detail: reason ?? '',
    } as ScorecardLine;
  }
  const line: ScorecardLine = {
    group,
    metric,
    value: value ? 'yes' : 'no',
    threshold: want === undefined ? '' : want ? 'yes' : 'no',
    status: want === undefined ? 'info' : value === want ? 'pass' : 'fail',
  };
  if (reason) line.detail = reason;
  return line;
}

const where = (p: { line: number; column: number }) => `${p.line}:${p.column}`;

/**
 * The scorecard of a report, one line per metric, in a fixed order: citations, tradecraft, each needle,
 * trajectory. Defaults where a needle sets no threshold: recall, trajectory, precision, reconciliation and
 * structural citation recall must be 1 (a note with an uncited claim fails, seed 001), grounded must be yes;
 * supporting-fact F1 and pivot burden are held to a threshold only when the needle sets one. The tradecraft lint
 * is advisory (seed 001: an advisory artifact) and only warns; the trajectory metrics have no thresholds yet.
 */
export function scorecardLines(report: ScoreReport): ScorecardLine[] {
  const lines: ScorecardLine[] = [];
  const r = report.resolution;
  lines.push(
    yesNo(
      'citations',
      'every citation resolves',
      r.value,
      r.value === false
        ? `dangling: ${r.dangling.map((d) => `${d.id} at line ${where(d.position)}`).join(', ')}`
        : r.reason,
      true,
    ),
  );
  const cr = report.citationRecall;
  if (cr) {
    const detail =
      cr.uncited.length > 0
        ? `uncited: ${cr.uncited.map((u) => `line ${u.line} "${u.text}"`).join('; ')}`
        : `${cr.covered}/${cr.total} claim sentences cited`;
    lines.push(atLeast('citations', 'citation recall (structural)', cr.value, cr.reason, 1, detail));
  } else {
    lines.push({
      group: 'citations',
      metric: 'citation recall (structural)',
      value: 'n/a',
      threshold: '',
      status: 'n/a',
      detail: 'the workup has no note',
    });
  }

  const t = report.tradecraft;
  if (t) {
    const bands = t.likelihood.map(
      (h) => `${h.text} (${h.band.range.map((x) => `${Math.round(x * 100)}`).join('-')}%) ${where(h)}`,
    );
    lines.push({
      group: 'tradecraft',
      metric: 'ICD 203 likelihood terms',
      value: String(t.likelihood.length),
      threshold: '',
      status: t.likelihoodStated ? 'info' : 'warn',
      detail: t.likelihoodStated ? bands.join(', ') : 'no ICD 203 likelihood term in any claim',
    });
    lines.push({
      group: 'tradecraft',
      metric: 'analytic confidence stated',
      value: t.confidenceStated ? 'yes' : 'no',
      threshold: '',
      status: t.confidenceStated ? 'info' : 'warn',
      detail: t.confidenceStated
        ? t.confidence.map((h) => `${h.level} ${where(h)}`).join(', ')
        : 'no low, moderate or high confidence stated',
    });
    lines.push({
      group: 'tradecraft',
      metric: 'non-standard hedges',
      value: String(t.hedges.length),
      threshold: '',
      status: t.hedges.length > 0 ? 'warn' : 'info',
      ...(t.hedges.length > 0 && {
        detail: t.hedges.map((h) => `"${h.text}" ${where(h)} (use ${h.suggestion})`).join(', '),
      }),
    });
    lines.push({
      group: 'tradecraft',
      metric: 'likelihood/confidence confusions',
      value: String(t.confusions.length),
      threshold: '',
      status: t.confusions.length > 0 ? 'warn' : 'info',
      ...(t.confusions.length > 0 && {
        detail: t.confusions.map((h) => `"${h.text}" ${where(h)}: ${h.message}`).join(', '),
      }),
    });
  }

  for (const { spec, score } of report.needles) {
    const group = `needle ${spec.id}`;
    const th = spec.thresholds;
    lines.push(atLeast(group, 'recall', score.recall.value, score.recall.reason, th.recall ?? 1));
    const tr = score.trajectory;
    lines.push(
      atLeast(
        group,
        'trajectory',
        tr.value,
        tr.reason,
        th.trajectory ?? 1,
        tr.value === 1 ? `path via ${tr.ledgerIds!.join(', ')}` : tr.reason,
      ),
    );
    lines.push(yesNo(group, 'grounded', score.grounded.value, score.grounded.reason, true));
    lines.push(
      yesNo(
        group,
        'guess',
        score.guess.value,
        score.guess.value ? 'the note names the answer the ledger never reached' : score.guess.reason,
      ),
    );
    const pr = score.precision;
    const wrong = pr.assertions.filter((a) => !a.correct);
    lines.push(
      atLeast(
        group,
        'bridge citation precision',
        pr.value,
        pr.reason,
        th.precision ?? 1,
        wrong.length > 0
          ? `not cited to a query that returned it: ${wrong
              .map(
                (a) =>
                  `${a.fact.subject} -${a.fact.relation}-> ${a.fact.object} (line ${a.position.line}, cites ${a.citations.join(', ') || 'nothing'})`,
              )
              .join('; ')}`
          : pr.reason,
      ),
    );
    const pb = score.pivotBurden;
    if (pb.value === null) {
      lines.push({
        group,
        metric: 'pivot burden',
        value: 'n/a',
        threshold: '',
        status: 'n/a',
        detail: pb.reason ?? '',
      });
    } else {
      const max = th.pivot_burden;
      lines.push({
        group,
        metric: 'pivot burden',
        value: `${plural(pb.value.queries, 'query', 'queries')}, ${plural(pb.value.hops, 'hop', 'hops')}`,
        threshold: max === undefined ? '' : `<= ${max} queries`,
        status: max === undefined ? 'info' : pb.value.queries <= max ? 'pass' : 'fail',
        detail: `completed by ${pb.value.completedBy}`,
      });
    }
    const sf = score.supportingFacts;
    const sfDetail = [
      ...(sf.value ? [`P ${fixed(sf.value.precision)} R ${fixed(sf.value.recall)} EM ${sf.value.em}`] : []),
      ...(sf.missing.length > 0
        ? [`missing ${sf.missing.map((f) => `${f.subject} -${f.relation}-> ${f.object}`).join(', ')}`]
        : []),
      ...(sf.extra.length > 0
        ? [`extra ${sf.extra.map((f) => `${f.subject} -${f.relation}-> ${f.object}`).join(', ')}`]
        : []),
    ].join('; ');
    lines.push(
      atLeast(
        group,
        'supporting-fact F1',
        sf.value?.f1 ?? null,
        sf.reason,
        th.supporting_fact_f1,
        sfDetail || undefined,
      ),
    );
    const rc = score.reconciliation;
    if (spec.stores.length > 0) {
      lines.push(
        atLeast(
          group,
          'reconciliation',
          rc.value,
          rc.reason,
          th.reconciliation ?? 1,
          rc.value === null
            ? rc.reason
            : [
                rc.verdict
                  ? `stores ${rc.verdict === 'agree' ? 'agree' : 'conflict'}`
                  : 'a store was not asked',
                ...(rc.wording && rc.wording.length > 0 ? [`note says "${rc.wording.join('", "')}"`] : []),
                ...(rc.reason ? [rc.reason] : []),
              ].join('; '),
        ),
      );
    }
  }

  const tj = report.trajectory;
  if (tj && 'reason' in tj) {
    lines.push({
      group: 'trajectory',
      metric: 'trajectory metrics',
      value: 'n/a',
      threshold: '',
      status: 'n/a',
      detail: tj.reason,
    });
  } else if (tj) {
    const rows: Array<[string, number]> = [
      ['step precision', tj.stepPrecision],
      ['step recall', tj.stepRecall],
      ['step F1', tj.stepF1],
      ['tool efficiency', tj.toolEfficiency],
      ['redundancy rate', tj.redundancyRate],
      ['error recovery rate', tj.errorRecoveryRate],
      ['similarity (difflib ratio)', tj.trajectorySimilarity],
    ];
    for (const [metric, value] of rows) {
      lines.push({
        group: 'trajectory',
        metric,
        value: fixed(value),
        threshold: '',
        status: 'info',
        detail: `against ${tj.gold}`,
      });
    }
  }
  return lines;
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
  const summary = `${count('pass')} passed, ${failed} failed, ${count('warn')} warnings, ${count('n/a')} not applicable`;
  out.push('', failed > 0 ? c.red(summary) : c.green(summary));
  return out.join('\n');
}
