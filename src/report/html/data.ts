import type { TrendTableData } from '../../history/means.js';
import type { TrendHistory } from '../../history/types.js';
import { projectPath } from '../../io/display-path.js';
import type { CheckMeta } from '../../model/check.js';
import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../checks.js';
import { expectationText, numericValue } from '../format.js';
import type { GateText } from '../gate-text.js';
import type { LoadedWorkup } from '../workups.js';
import { htmlTrend, trendOverview } from './trend.js';
import { htmlTrials } from './trials.js';
import type { HtmlCheck, HtmlMetricMean, HtmlReportData, HtmlTest, HtmlWorkup } from './types.js';
import { workupView } from './workup-view.js';

export interface HtmlDataInput {
  checks: readonly CheckRecord[];
  /** The workups by the `workupPath` the checks give (or by workup id when a check gives no path). */
  workups?: ReadonlyMap<string, LoadedWorkup>;
  history?: TrendHistory;
  /** The trend to chart as the results store gives it (its last runs and their metric means); wins over `history`. */
  trend?: TrendTableData;
  title?: string;
  now?: Date;
  /** The regression gate of this run against the latest earlier one, as `gateText` words it. */
  gate?: GateText;
  /** The project root, against which a check's spec file is named. @default process.cwd() */
  root?: string;
}

/** Gathers everything the page shows into one serialisable object; the page itself does no computing beyond filters. */
export function buildHtmlData(input: HtmlDataInput): HtmlReportData {
  const checks: HtmlCheck[] = [];
  const tests: HtmlTest[] = [];
  const byWorkup = new Map<string, { id: string; path?: string; file?: string; metas: CheckMeta[] }>();
  for (const record of input.checks) {
    const errors = record.errors.map((e) => e.message);
    const meta = record.meta;
    if (!meta) {
      tests.push({
        file: record.file,
        fullName: record.fullName,
        state: record.state,
        durationMs: record.durationMs,
        errors,
      });
      continue;
    }
    const key = workupKey(meta, record.file);
    const check: HtmlCheck = {
      spec: meta.spec,
      specKind: meta.specKind,
      workup: meta.workup,
      workupKey: key,
      criterion: meta.criterion,
      metric: meta.metric,
      value: meta.value,
      verdict: meta.verdict,
      state: record.state,
      statement: expectationText(meta),
      file: record.file,
      durationMs: record.durationMs,
      errors,
    };
    if (meta.unit) check.unit = meta.unit;
    if (meta.threshold !== undefined) check.threshold = meta.threshold;
    if (meta.comparator) check.comparator = meta.comparator;
    if (meta.scores && Object.keys(meta.scores).length > 0) check.scores = meta.scores;
    if (meta.task !== undefined) check.task = meta.task;
    const places = specPlaces(meta, input.root ?? process.cwd());
    if (places) Object.assign(check, places);
    checks.push(check);
    let group = byWorkup.get(key);
    if (!group) {
      group = meta.workupPath
        ? { id: meta.workup, path: meta.workupPath, metas: [] }
        : { id: meta.workup, file: record.file, metas: [] };
      byWorkup.set(key, group);
    }
    group.metas.push(meta);
  }
  checks.sort(
    (a, b) =>
      rank(a) - rank(b) ||
      byteCompare(a.spec, b.spec) ||
      byteCompare(a.workup, b.workup) ||
      byteCompare(a.criterion, b.criterion) ||
      byteCompare(a.workupKey, b.workupKey),
  );
  tests.sort(
    (a, b) =>
      Number(b.state === 'failed') - Number(a.state === 'failed') ||
      byteCompare(a.file, b.file) ||
      byteCompare(a.fullName, b.fullName),
  );

  const workups: HtmlWorkup[] = [...byWorkup.entries()]
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([key, { id, path, file, metas }]) => {
      const loaded = input.workups?.get(path ?? id);
      const where = { key, id, ...(path ? { path } : { file: file! }) };
      if (loaded && 'workup' in loaded) return { ...workupView(loaded.workup, metas, path), ...where };
      const view: HtmlWorkup = { ...where, ledger: [], paths: [] };
      if (loaded && 'error' in loaded) view.loadError = loaded.error;
      return view;
    });

  const passed = checks.filter((c) => c.verdict === 'pass').length;
  const failed = checks.filter((c) => c.verdict === 'fail').length;
  const data: HtmlReportData = {
    schema: 1,
    title: input.title ?? 'needlework report',
    generatedAt: (input.now ?? new Date()).toISOString(),
    summary: {
      checks: checks.length,
      passed,
      failed,
      notApplicable: checks.length - passed - failed,
      passRate: passed + failed > 0 ? passed / (passed + failed) : null,
      tests: tests.length,
      testsFailed: tests.filter((t) => t.state === 'failed').length,
      metrics: means(checks),
    },
    checks,
    tests,
    workups,
  };
  Object.assign(data, chartedTrend(input.trend ?? (input.history && trendOverview(input.history.runs))));
  if (input.gate) data.gate = input.gate;
  const repeated = htmlTrials(input.checks);
  if (repeated) {
    data.trials = repeated.trials;
    for (const c of checks)
      if (c.task !== undefined && repeated.isFlaky(c.spec, c.criterion, c.task)) c.flaky = true;
  }
  return data;
}

/**
 * The charts of `overview` (the last runs and their metric means) as a report's data has them, when it has any runs:
 * the HTML reporter writes the rest of the page while the trend reporter appends the run the charts end with.
 */
export function chartedTrend(overview: TrendTableData | undefined): Pick<HtmlReportData, 'trend'> {
  return overview && overview.runs.length > 0 ? { trend: htmlTrend(overview) } : {};
}

/**
 * Where a check is written in its spec file, as `file:line:column` from the project root: its assertion, and its case
 * when that starts elsewhere (a budget a case takes from `defaults:` is written above its case).
 */
function specPlaces(meta: CheckMeta, root: string): Pick<HtmlCheck, 'place' | 'casePlace'> | undefined {
  if (meta.specFile === undefined || (!meta.place && !meta.casePlace)) return undefined;
  const file = projectPath(root, meta.specFile);
  const text = (p: { line: number; column: number }) => `${file}:${p.line}:${p.column}`;
  return {
    ...(meta.place && { place: text(meta.place) }),
    ...(meta.casePlace && { casePlace: text(meta.casePlace) }),
  };
}

/**
 * Which workup a check is of: its id and its folder, or, with no folder, its id and the check's test file. The id
 * alone is not enough: a live test names its workup after the test, so two tests of one name in two files record two
 * workups of one id (in two folders).
 */
function workupKey(meta: CheckMeta, file: string): string {
  return meta.workupPath ? `${meta.workup}\0path\0${meta.workupPath}` : `${meta.workup}\0file\0${file}`;
}

/** Failing checks first, then not-applicable ones, then passing ones. */
function rank(check: HtmlCheck): number {
  if (check.verdict === 'fail' || check.state === 'failed') return 0;
  return check.verdict === 'not-applicable' ? 1 : 2;
}

function means(checks: readonly HtmlCheck[]): HtmlMetricMean[] {
  const groups = new Map<string, HtmlMetricMean & { sum: number }>();
  for (const check of checks) {
    const key = `${check.spec}\0${check.criterion}`;
    let g = groups.get(key);
    if (!g) {
      g = {
        spec: check.spec,
        criterion: check.criterion,
        metric: check.metric,
        mean: null,
        count: 0,
        failed: 0,
        sum: 0,
      };
      if (check.unit) g.unit = check.unit;
      groups.set(key, g);
    }
    const value = numericValue(check.value);
    if (value !== undefined) {
      g.sum += value;
      g.count++;
    }
    if (check.verdict === 'fail') g.failed++;
  }
  return [...groups.entries()]
    .sort(([a], [b]) => byteCompare(a, b))
    .map(([, { sum, ...g }]) => ({ ...g, mean: g.count > 0 ? sum / g.count : null }));
}
