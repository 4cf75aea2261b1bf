import { randomBytes } from 'node:crypto';
import { projectPaths } from '../io/display-path.js';
import type { CheckMeta } from '../model/check.js';
import { byteCompare } from '../model/order.js';
import { tallyTrials } from '../trials/tally.js';
import type { Revision } from './revision.js';
import type { TrendCheck, TrendRun, TrendScope, TrendSummary, TrendTrials } from './types.js';

/** What a run's history entry keeps of a finished test: the check it attached and whether Vitest ran it. */
export interface RecordedCheck {
  meta?: CheckMeta | undefined;
  state: TrendCheck['state'];
}

/**
 * The history entry of a run: every needlework check as spec x workup x criterion (`trendCheckOf`), in the history's
 * order (`historyOrder`), the trials and passes of each spec x criterion x task, the run's scope and a summary.
 * Durations are left out on purpose: they are not a quality signal, and leaving them out makes a sharded-and-merged
 * run's entry equal one run's.
 */
export function buildTrendRun(
  checks: readonly RecordedCheck[],
  revision: Revision,
  now: Date = new Date(),
  scope: TrendScope = { kind: 'full' },
  root?: string,
): TrendRun {
  const trendChecks: TrendCheck[] = [];
  const pathOf = root === undefined ? undefined : projectPaths(root);
  for (const check of checks) if (check.meta) trendChecks.push(trendCheckOf(check.meta, check.state, pathOf));
  return trendRunOf(trendChecks, revision, now, scope, root);
}

/**
 * `buildTrendRun` of checks already made with `trendCheckOf` (as the trend reporter makes them while the tests run):
 * sorts `trendChecks` into the history's order, in place, and makes the run of them.
 */
export function trendRunOf(
  trendChecks: TrendCheck[],
  revision: Revision,
  now: Date = new Date(),
  scope: TrendScope = { kind: 'full' },
  root?: string,
): TrendRun {
  trendChecks.sort(historyOrder);
  const run: TrendRun = {
    id: runId(now),
    time: now.toISOString(),
    scope,
    summary: summarize(trendChecks),
    checks: trendChecks,
    trials: trendTrials(trendChecks),
  };
  if (revision.commit) run.commit = revision.commit;
  if (revision.branch) run.branch = revision.branch;
  if (revision.source) run.source = revision.source;
  if (revision.baseBranch) run.baseBranch = revision.baseBranch;
  if (root !== undefined) run.root = root;
  return run;
}

/**
 * A finished test's check as the history keeps it: its workup's path as `pathOf` names it (`projectPaths` of the
 * run's root), when given.
 */
export function trendCheckOf(
  meta: CheckMeta,
  state: TrendCheck['state'],
  pathOf?: (file: string) => string,
): TrendCheck {
  const entry: TrendCheck = {
    spec: meta.spec,
    ...(meta.case !== undefined && { case: meta.case }),
    workup: meta.workup,
    ...(meta.task !== undefined && { task: meta.task }),
    ...(meta.trial !== undefined && { trial: meta.trial }),
    criterion: meta.criterion,
    metric: meta.metric,
    value: meta.value,
    verdict: meta.verdict,
    state,
  };
  if (meta.unit) entry.unit = meta.unit;
  if (meta.threshold !== undefined) entry.threshold = meta.threshold;
  if (meta.comparator) entry.comparator = meta.comparator;
  if (meta.summary) entry.reason = meta.summary;
  if (meta.workupPath !== undefined)
    entry.workupPath = pathOf === undefined ? meta.workupPath : pathOf(meta.workupPath);
  if (meta.evidence && Object.keys(meta.evidence).length > 0) entry.evidence = meta.evidence;
  return entry;
}

/**
 * The order of a run's checks in the history: by spec, workup, criterion, case, task and trial (a numbered trial by
 * its number, before a labelled one), in byte order. It depends on the checks alone, not on the order their tests
 * ran or were reported in, so a run appended while its tests ran (`Store.streamAppend`, in the order they ended) reads
 * back as the run built after them; checks equal in all of these keep the order they came in.
 */
export function historyOrder(a: TrendCheck, b: TrendCheck): number {
  return (
    byteCompare(a.spec, b.spec) ||
    byteCompare(a.workup, b.workup) ||
    byteCompare(a.criterion, b.criterion) ||
    byteCompare(a.case ?? '', b.case ?? '') ||
    byteCompare(a.task ?? '', b.task ?? '') ||
    trialOrder(a.trial, b.trial)
  );
}

function trialOrder(a: TrendCheck['trial'], b: TrendCheck['trial']): number {
  if (a === b) return 0;
  if (a === undefined || b === undefined) return a === undefined ? -1 : 1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'number' || typeof b === 'number') return typeof a === 'number' ? -1 : 1;
  return byteCompare(a, b);
}

export function summarize(checks: readonly TrendCheck[]): TrendSummary {
  let passed = 0;
  let failed = 0;
  let notApplicable = 0;
  let skipped = 0;
  for (const check of checks) {
    if (check.verdict === 'pass') passed++;
    else if (check.verdict === 'fail') failed++;
    else notApplicable++;
    if (check.state === 'skipped' || check.state === 'pending') skipped++;
  }
  const decided = passed + failed;
  return {
    checks: checks.length,
    passed,
    failed,
    notApplicable,
    skipped,
    passRate: decided ? passed / decided : null,
  };
}

function runId(now: Date): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${stamp}-${randomBytes(4).toString('hex')}`;
}

/** The trials and passes of each spec x criterion x case x task of a run's checks, in byte order of those four. */
export function trendTrials(checks: readonly TrendCheck[]): TrendTrials[] {
  return tallyTrials(checks).map(
    ({ spec, criterion, case: c, task, metric, trials, passes, notApplicable }) => ({
      spec,
      criterion,
      ...(c !== undefined && { case: c }),
      task,
      metric,
      trials,
      passes,
      notApplicable,
    }),
  );
}
