import { CASE_STATUSES, type CaseChange, changeKey, type RunComparison } from '../history/compare.js';
import type { RunHead } from '../history/store/rows.js';
import type { TrendOverview } from '../history/store/source.js';
import type { TrendCheck, TrendRun } from '../history/types.js';
import { byteCompare } from '../model/order.js';
import { type GateRow, type GateText, gateHeadline, gateText } from '../report/gate-text.js';
import { type CriterionStatistics, trialStatistics } from '../trials/summary.js';
import { fittedAxis, runLabel, UNIT_AXIS } from './axis.js';
import type {
  CheckRow,
  CompareRow,
  Comparison,
  RunChange,
  RunDetail,
  Trends,
  TrialsView,
} from './client/types.js';
import { checkRow, runRow } from './rows.js';

// The API's answers built from runs alone: the served UI (src/ui/data.ts, over a store) and the static report (src/ui/report,
// over one run's data, inlined) both call these, so a report and the UI cannot tell a run two ways.

/** A run's comparison with its baseline; `text` when the gate's words of it are already known (else worded here). */
export interface Compared {
  /** The baseline, with its checks or without (its head is all an answer shows of it). */
  baseline: RunHead;
  comparison: RunComparison;
  text?: GateText;
}

/** How many of the changed rows (regressed first) head the One run view, the rest a click away in Compare. */
export const GATE_ROWS = 3;
const CHANGED: ReadonlySet<CompareRow['status']> = new Set(['regressed', 'fixed', 'flaky', 'moved']);

/** A run's change against its baseline, in counts and the gate's headline (`GET /api/changes`). */
export function runChange(id: string, compared: Compared | undefined): RunChange {
  const change: RunChange = {
    id,
    regressed: 0,
    fixed: 0,
    flaky: 0,
    moved: 0,
    stillFailing: 0,
    added: 0,
    removed: 0,
  };
  if (!compared) return change;
  const c = compared.comparison.counts;
  return {
    ...change,
    baseline: compared.baseline.id,
    // The headline alone: the words of every change (9,300 of two runs of 30,000 checks) are not shown here.
    headline: compared.text?.headline ?? gateHeadline(compared.comparison),
    regressed: c.regressed,
    fixed: c.fixed,
    flaky: c.flaky,
    moved: c.moved,
    stillFailing: c['still-failing'],
    added: c.added,
    removed: c.removed,
  };
}

/** `GET /api/compare`: the comparison the gate makes, in its words; `chosen` when the baseline was named. */
export function comparisonAnswer(
  current: RunHead,
  compared: Compared | undefined,
  chosen: boolean,
): Comparison {
  if (!compared) {
    const counts = Object.fromEntries(CASE_STATUSES.map((s) => [s, 0])) as Comparison['counts'];
    return { current: runRow(current), chosen: false, counts, notes: [], criteria: [], rows: [] };
  }
  const { comparison, baseline } = compared;
  const text = wording(compared);
  return {
    current: runRow(current),
    baseline: runRow(baseline),
    chosen,
    headline: text.headline,
    counts: comparison.counts,
    countsText: text.counts,
    notes: text.notes,
    criteria: text.criteria.map(({ status, spec, criterion, text, drops }) => ({
      status,
      spec,
      criterion,
      text,
      drops,
    })),
    rows: compareRows(compared),
  };
}

/**
 * `GET /api/runs/<id>`: the run's checks, what its comparison says of each case x criterion, and the gate's story of
 * it (the headline and the first changed rows) for the view to head them with.
 */
export function runDetail(run: TrendRun, compared: Compared | undefined): RunDetail {
  const changes: RunDetail['changes'] = {};
  for (const change of compared?.comparison.changes ?? []) changes[changeKey(change)] = change.status;
  const flaky = run.trials.filter((t) => t.passes > 0 && t.passes < t.trials).map((t) => changeKey(t));
  const detail: RunDetail = { run: runRow(run), checks: run.checks.map(checkRow), changes, flaky };
  numberFiles(run.checks, detail.checks);
  if (compared) {
    const text = wording(compared);
    const rows: CompareRow[] = [];
    let changed = 0;
    compared.comparison.changes.forEach((change, i) => {
      if (!CHANGED.has(change.status)) return;
      changed++;
      if (rows.length < GATE_ROWS) rows.push(compareRow(change, text.rows[i] as GateRow));
    });
    detail.baseline = compared.baseline.id;
    detail.gate = {
      headline: text.headline,
      regressed: text.regressed,
      counts: text.counts,
      notes: text.notes,
      changed,
      rows,
    };
  }
  return detail;
}

/**
 * `GET /api/runs/<id>/trials`: per spec x criterion x task, k of n passed, pass@k and pass^k, each trial's verdict.
 * `stats`: the run's trial statistics when already computed (the reports of a run compute them once for all): none
 * of what the answer takes from them depends on the bootstrap's resamples.
 */
export function trialsAnswer(run: TrendRun, stats?: readonly CriterionStatistics[]): TrialsView {
  // As the reports do (src/report/trials.ts): only workups that name a task are trials of one.
  const named = run.checks.filter((c) => c.task !== undefined);
  const verdicts = new Map<string, TrialsView['criteria'][number]['rows'][number]['verdicts']>();
  for (const c of named) {
    if (c.state === 'skipped' || c.state === 'pending') continue;
    const key = trialKey(c);
    let list = verdicts.get(key);
    if (!list) {
      list = [];
      verdicts.set(key, list);
    }
    list.push({ workup: c.workup, ...(c.trial !== undefined && { trial: c.trial }), verdict: c.verdict });
  }
  // The view shows no interval of a metric's mean: one bootstrap resample (the fewest allowed) spares the 1,000.
  return {
    run: runRow(run),
    criteria: (stats ?? trialStatistics(named, { resamples: 1 })).map((s) => ({
      spec: s.spec,
      criterion: s.criterion,
      metric: s.metric,
      ks: Object.keys(s.overall.passAtK),
      tasks: s.overall.tasks,
      trials: s.overall.trials,
      passes: s.overall.passes,
      passRate: s.overall.passRate,
      interval: s.overall.interval && { low: s.overall.interval.low, high: s.overall.interval.high },
      passAtK: s.overall.passAtK,
      passHatK: s.overall.passHatK,
      rows: s.tasks.map((t) => ({
        task: t.task,
        trials: t.trials,
        passes: t.passes,
        flaky: t.flaky,
        passAtK: t.passAtK,
        passHatK: t.passHatK,
        verdicts: verdicts.get(`${s.spec}\0${s.criterion}\0${t.task}`) ?? [],
      })),
    })),
  };
}

/**
 * `GET /api/trends`: the last runs' pass rates and metric means (oldest first), each run's label for a chart's x axis,
 * each series' value axis fitted to its values and unit, and where the model or the agent version changed.
 */
export function trendsAnswer(overview: TrendOverview): Trends {
  const changes: Trends['changes'] = [];
  overview.runs.forEach((run, index) => {
    const before = overview.runs[index - 1];
    if (!before) return;
    const what: string[] = [];
    const a = before.environment ?? {};
    const b = run.environment ?? {};
    if (a.model !== b.model) what.push(`model ${a.model ?? 'unknown'} -> ${b.model ?? 'unknown'}`);
    if (a.agentVersion !== b.agentVersion)
      what.push(`agent ${a.agentVersion ?? 'unknown'} -> ${b.agentVersion ?? 'unknown'}`);
    if (what.length) changes.push({ index, what: what.join('; ') });
  });
  return {
    total: overview.total,
    runs: overview.runs.map(runRow),
    labels: overview.runs.map(runLabel),
    passRateAxis: UNIT_AXIS,
    changes,
    series: overview.series.map((s) => {
      const means = s.means.map((m) => (m === undefined || !Number.isFinite(m) ? null : m));
      return {
        spec: s.spec,
        criterion: s.criterion,
        metric: s.metric,
        ...(s.unit !== undefined && { unit: s.unit }),
        lowerIsBetter: s.lowerIsBetter,
        means,
        axis: fittedAxis(means, s.unit),
      };
    }),
  };
}

/** Tells a check which of its workup id's files its workup is, where the id names several (`?file=` of the view). */
function numberFiles(checks: readonly TrendCheck[], rows: CheckRow[]): void {
  // Each workup id's one path, or its paths once it has several (a set only for those: most ids name one file).
  const files = new Map<string, string | Set<string>>();
  for (const c of checks) {
    if (c.workupPath === undefined) continue;
    const known = files.get(c.workup);
    if (known === undefined) files.set(c.workup, c.workupPath);
    else if (typeof known !== 'string') known.add(c.workupPath);
    else if (known !== c.workupPath) files.set(c.workup, new Set([known, c.workupPath]));
  }
  const numbered = new Map<string, number>();
  for (const [workup, paths] of files)
    if (typeof paths !== 'string')
      for (const [i, path] of [...paths].sort(byteCompare).entries())
        numbered.set(`${workup}\0${path}`, i + 1);
  if (numbered.size === 0) return;
  checks.forEach((c, i) => {
    const file = numbered.get(`${c.workup}\0${c.workupPath}`);
    if (file !== undefined) (rows[i] as CheckRow).workupFile = file;
  });
}

/** The gate's words of a comparison: the ones given, else `gateText`'s (kept, so a comparison is worded once). */
function wording(compared: Compared): GateText {
  compared.text ??= gateText(compared.comparison);
  return compared.text;
}

/** Every changed case x criterion as Compare lists it: `gateText`'s rows, in its order, with both sides' reasons. */
function compareRows(compared: Compared): CompareRow[] {
  const rows = wording(compared).rows;
  return compared.comparison.changes.map((change, i) => compareRow(change, rows[i] as GateRow));
}

function trialKey(c: TrendCheck): string {
  return `${c.spec}\0${c.criterion}\0${c.task ?? c.workup}`;
}

function compareRow(change: CaseChange, row: GateRow): CompareRow {
  return {
    status: change.status,
    spec: change.spec,
    ...(change.case !== undefined && { caseId: change.case }),
    task: change.task,
    case: row.case,
    criterion: change.criterion,
    before: row.before,
    after: row.after,
    ...(row.basis !== undefined && { basis: row.basis }),
    ...(change.direction !== undefined && { direction: change.direction }),
    ...(change.before?.reason !== undefined && { beforeReason: change.before.reason }),
    ...(change.after?.reason !== undefined && { afterReason: change.after.reason }),
    line: row.line,
  };
}
