import type { TrendOverview } from '../../history/store/source.js';
import type { TrendCheck, TrendRun } from '../../history/types.js';
import { projectPaths } from '../../io/display-path.js';
import { byteCompare } from '../../model/order.js';
import type { CheckRecord } from '../../report/checks.js';
import { CHARTED_RUNS } from '../../report/run-history.js';
import type { CriterionStatistics } from '../../trials/summary.js';
import { type Compared, comparisonAnswer, runDetail, trendsAnswer, trialsAnswer } from '../answers.js';
import type { PlainTest, PlainTests, WorkupAnswer } from '../client/types.js';
import type { WrittenJson } from './written-json.js';

/** One answer of the report: the API path the client asks for it by, and the very JSON the server answers it with. */
export type ReportAnswer = [path: string, answer: unknown];

/** One workup the report holds: its id, which of its files (1-based, as `?file=`) and the run's checks of it. */
export interface WorkupRef {
  workup: string;
  /** The workup's file or folder, as the checks name it (from the project root); absent for one built in memory. */
  path?: string;
  /** Every file of this workup id in the run, in byte order (`file` is 1 + the index of `path` in it). */
  files: string[];
  file: number;
  checks: TrendCheck[];
}

export interface ReportInput {
  /** The run, as the history keeps it (built from its checks, or read from the store). */
  run: TrendRun;
  /** Its comparison with its baseline, as the gate made it; absent without a baseline. */
  compared?: Compared;
  /**
   * The runs up to it with their metric means, for the trend: awaited last, after every other answer is written (the
   * store may still be appending this run). Absent, or resolving to undefined, for a report with no history.
   */
  trend?: Promise<TrendOverview | undefined>;
  /**
   * The run's tests as Vitest reported them (the report of a run as it ran): its plain tests, and where each check is
   * written in its spec file, neither of which the store keeps.
   */
  records?: readonly CheckRecord[];
  /** The project root, from which places are named. @default process.cwd() */
  root?: string;
  /** The run's trial statistics, when the reports of the run have them (`recordTrialStatistics`: computed once for all). */
  trials?: readonly CriterionStatistics[];
  /**
   * The answer of one workup of the run (`/api/runs/<run>/workups/<workup>`), or its JSON when already written, or
   * undefined when it is not shown.
   */
  workup?: (ref: WorkupRef) => Promise<WorkupAnswer | WrittenJson | undefined>;
}

/**
 * The API's answers for one run, as the static report inlines them: the run, its comparison with its baseline, its
 * trials, its plain tests, each workup its checks name, and the trend up to it, each built by the functions the
 * served UI answers with (src/ui/answers.ts, src/ui/workup-data.ts). One at a time, so the page is written as they
 * come and never held whole.
 */
export async function* reportAnswers(input: ReportInput): AsyncGenerator<ReportAnswer> {
  const { run } = input;
  const runPath = `/api/runs/${encodeURIComponent(run.id)}`;
  const detail = runDetail(run, input.compared);
  const tests = input.records ? plainTests(input.records) : undefined;
  if (input.records) withPlaces(detail.checks, run.checks, input.records, input.root ?? process.cwd());
  if (tests?.length)
    detail.tests = { total: tests.length, failed: tests.filter((t) => t.state === 'failed').length };
  yield [runPath, detail];
  yield [
    `/api/compare?${new URLSearchParams({ current: run.id })}`,
    comparisonAnswer(run, input.compared, false),
  ];
  yield [`${runPath}/trials`, trialsAnswer(run, input.trials)];
  if (tests?.length) yield [`${runPath}/tests`, { run: run.id, tests } satisfies PlainTests];
  if (input.workup)
    for (const ref of workupRefs(run.checks)) {
      const answer = await input.workup(ref);
      if (answer)
        yield [
          `${runPath}/workups/${encodeURIComponent(ref.workup)}${ref.file > 1 ? `?file=${ref.file}` : ''}`,
          answer,
        ];
    }
  const overview = upTo(await input.trend, run);
  if (overview && overview.runs.length > 0)
    yield [`/api/trends?${new URLSearchParams({ last: String(CHARTED_RUNS) })}`, trendsAnswer(overview)];
}

/**
 * The trend up to the run: the runs the history charts that ended no later than it (the report of a past run charts
 * none that came after it), the run itself included when the history holds it.
 */
function upTo(overview: TrendOverview | undefined, run: TrendRun): TrendOverview | undefined {
  if (!overview) return undefined;
  const own = overview.runs.findIndex((r) => r.id === run.id);
  let end = own + 1;
  if (own < 0) {
    const time = Date.parse(run.time);
    while (end < overview.runs.length && !(Date.parse(overview.runs[end]?.time ?? '') > time)) end++;
  }
  if (end === overview.runs.length) return overview;
  return {
    total: overview.total,
    runs: overview.runs.slice(0, end),
    series: overview.series.map((s) => ({ ...s, means: s.means.slice(0, end) })),
  };
}

/** The view a report opens at: its run, its failing checks when it has any. */
export function reportHome(run: TrendRun): string {
  return `/runs/${encodeURIComponent(run.id)}${run.summary.failed > 0 ? '?filter=failing' : ''}`;
}

/**
 * Each workup the run's checks name, once per file: a workup id that names two files (two live tests of one name in
 * two folders) is two workups, told apart as the served UI tells them (`?file=<n>`, in byte order of their paths).
 */
export function workupRefs(checks: readonly TrendCheck[]): WorkupRef[] {
  const byId = new Map<string, Map<string | undefined, TrendCheck[]>>();
  for (const check of checks) {
    let byPath = byId.get(check.workup);
    if (!byPath) {
      byPath = new Map();
      byId.set(check.workup, byPath);
    }
    const list = byPath.get(check.workupPath);
    if (list) list.push(check);
    else byPath.set(check.workupPath, [check]);
  }
  const refs: WorkupRef[] = [];
  for (const [workup, byPath] of [...byId].sort(([a], [b]) => byteCompare(a, b))) {
    const files = [...byPath.keys()].filter((p): p is string => p !== undefined).sort(byteCompare);
    // As the served UI reads them: the checks of the file picked, or with no file, those that name none.
    const picks = files.length > 0 ? files : [undefined];
    picks.forEach((path, i) => {
      const ref: WorkupRef = { workup, files, file: i + 1, checks: byPath.get(path) ?? [] };
      if (path !== undefined) ref.path = path;
      refs.push(ref);
    });
  }
  return refs;
}

/** The run's plain Vitest tests (those that attached no check), failing first, then by file and name. */
function plainTests(records: readonly CheckRecord[]): PlainTest[] {
  return records
    .filter((r) => !r.meta)
    .map((r) => ({
      file: r.file,
      name: r.fullName,
      state: r.state,
      durationMs: r.durationMs,
      errors: r.errors.map((e) => e.message),
    }))
    .sort(
      (a, b) =>
        Number(b.state === 'failed') - Number(a.state === 'failed') ||
        byteCompare(a.file, b.file) ||
        byteCompare(a.name, b.name),
    );
}

/** What names a check in its run, beside its workup's path and criterion, and where it is written. */
interface Placed {
  spec: string;
  case: string | undefined;
  workup: string;
  trial: number | string | undefined;
  where: { place?: string; casePlace?: string };
}

/**
 * Where each check is written in its spec file (`file:line:column` from the root): its assertion, and its case when
 * that starts elsewhere. The records carry it, the run's checks (rows in the same order) do not; a check is found by
 * what names it in the run (spec, case, workup, criterion, trial and its workup's path; the first record that names
 * it), by its workup's path and criterion first, then among the few records of those: no key is written per check
 * (30,000 checks: 80 ms of the report's end, when each record and each check wrote one).
 */
function withPlaces(
  rows: Array<{ place?: string; casePlace?: string }>,
  checks: readonly TrendCheck[],
  records: readonly CheckRecord[],
  root: string,
): void {
  // By workup path ('' for none), then criterion.
  const places = new Map<string, Map<string, Placed[]>>();
  const named = projectPaths(root);
  let any = false;
  for (const { meta } of records) {
    if (!meta || meta.specFile === undefined || (!meta.place && !meta.casePlace)) continue;
    const file = named(meta.specFile);
    const where: Placed['where'] = {};
    if (meta.place) where.place = `${file}:${meta.place.line}:${meta.place.column}`;
    if (meta.casePlace) where.casePlace = `${file}:${meta.casePlace.line}:${meta.casePlace.column}`;
    const path = meta.workupPath === undefined ? '' : named(meta.workupPath);
    let byCriterion = places.get(path);
    if (!byCriterion) {
      byCriterion = new Map();
      places.set(path, byCriterion);
    }
    const placed = { spec: meta.spec, case: meta.case, workup: meta.workup, trial: meta.trial, where };
    const list = byCriterion.get(meta.criterion);
    if (list) list.push(placed);
    else byCriterion.set(meta.criterion, [placed]);
    any = true;
  }
  if (!any) return;
  checks.forEach((check, i) => {
    const found = places
      .get(check.workupPath ?? '')
      ?.get(check.criterion)
      ?.find(
        (p) =>
          p.spec === check.spec &&
          (p.case ?? '') === (check.case ?? '') &&
          p.workup === check.workup &&
          (p.trial === check.trial || String(p.trial ?? '') === String(check.trial ?? '')),
      );
    const row = rows[i];
    if (found && row) Object.assign(row, found.where);
  });
}
