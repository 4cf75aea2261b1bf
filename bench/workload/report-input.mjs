// What the reporters of `needlework run` get at the end of a run of the peer workload (cases.mjs): its check records
// as Vitest hands them over (the checks decided by the one verdict engine, `checkWorkup`, on the workload's specs and
// runs, each in its test's describe path, a failure with its statement as the test's error), the workups they name as
// the run loaded them, the run as the history keeps it, a baseline it is gated against (one case in twenty fixed since,
// one in twenty regressed) and the trend up to it. No Vitest run: a bench times what the reports build from these.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { writeNeedleworkProject } from './cases.mjs';

const dist = new URL('../../dist/src/', import.meta.url);
const lib = (path) => import(new URL(path, dist).href);

/**
 * The inputs of a run of `n` cases, from a project written under a new temporary folder (`root`, left for the
 * caller to remove).
 */
export async function reportInput(n) {
  const [{ loadSpecs }, { loadWorkups }, { checkWorkup }, { buildTrendRun }, { gateOf }, { metricMeans }] =
    await Promise.all([
      lib('specs/load.js'),
      lib('workup/load.js'),
      lib('checks/check-workup.js'),
      lib('history/entry.js'),
      lib('report/run-history.js'),
      lib('history/means.js'),
    ]);
  const root = await mkdtemp(join(tmpdir(), 'needlework-bench-report-'));
  await writeNeedleworkProject(root, n);
  const specs = await loadSpecs(join(root, 'needles'));
  const specList = [...specs.needles, ...specs.rubrics, ...specs.cases];
  const { workups, failures } = await loadWorkups(join(root, 'workups'));
  if (specs.errors.length > 0 || failures.length > 0) throw new Error('the workload did not load');
  const records = [];
  const loaded = new Map();
  for (const workup of workups) {
    loaded.set(workup.meta.path, { workup });
    for (const check of await checkWorkup(workup, specList)) records.push(recordOf(check, root));
  }
  // Report order, as `collectChecks` gives it: by file, then by full name.
  records.sort((a, b) => cmp(a.file, b.file) || cmp(a.fullName, b.fullName));
  const revision = { commit: 'c'.repeat(40), branch: 'main', source: 'git' };
  const start = Date.parse('2026-11-20T09:00:00Z');
  const run = buildTrendRun(records, revision, new Date(start), { kind: 'full' }, root);
  // The baseline: the case after each tenth one failed then (fixed since), the tenth passed (regressed since).
  const flipped = records.map((r) => {
    const i = Number(/case-(\d+)/.exec(r.meta.case ?? '')?.[1]);
    if (i % 20 !== 4 && i % 20 !== 3) return r;
    const verdict = r.meta.verdict === 'pass' ? 'fail' : 'pass';
    return { ...r, state: verdict === 'pass' ? 'passed' : 'failed', meta: { ...r.meta, verdict } };
  });
  const baseline = buildTrendRun(flipped, revision, new Date(start - 3600_000), { kind: 'full' }, root);
  const gate = gateOf(run, baseline);
  const charted = [baseline, run];
  const trend = {
    total: charted.length,
    runs: charted.map(({ checks: _, trials: __, ...head }) => head),
    series: metricMeans(charted),
  };
  return { root, records, workups: loaded, run, baseline, gate, trend };
}

function recordOf(check, root) {
  const suitePath = [check.spec, check.case === undefined ? check.workup : `${check.case} › ${check.workup}`];
  const state = check.verdict === 'pass' ? 'passed' : check.verdict === 'fail' ? 'failed' : 'skipped';
  return {
    name: check.criterion,
    suitePath,
    fullName: [...suitePath, check.criterion].join(' > '),
    file: relative(root, check.specFile),
    ...(check.place && { line: check.place.line }),
    state,
    durationMs: 1,
    errors:
      check.verdict === 'fail'
        ? [{ name: 'AssertionError', message: `${check.metric} = no: ${check.summary ?? ''}` }]
        : [],
    meta: check,
  };
}

const cmp = (a, b) => (a < b ? -1 : a > b ? 1 : 0);
