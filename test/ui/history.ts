import { summarize, trendTrials } from '../../src/history/entry.js';
import type { Store } from '../../src/history/store/store.js';
import type { TrendCheck, TrendRun } from '../../src/history/types.js';

/** What an agent might write where a name or reason goes: markup, script, a handler, a link. */
export const HOSTILE = `<img src=x onerror="window.__pwned=1"><script>window.__pwned=2</script>"'&`;

export interface RunSpec {
  minute: number;
  branch?: string;
  model?: string;
  agentVersion?: string;
  commit?: string;
  /** Which (case index) fail in this run. */
  failing?: (caseIndex: number, trial: number) => boolean;
  cases?: number;
  trials?: number;
}

/**
 * A run of `cases` task cases of the `support` spec, each a task of `trials` workups, checked on two criteria
 * (`answer`, a verdict, and `recall`, a value). Case 0's name and every failing reason carry hostile text.
 */
export function makeRun(spec: RunSpec): TrendRun {
  const checks: TrendCheck[] = [];
  const cases = spec.cases ?? 4;
  const trials = spec.trials ?? 1;
  for (let c = 0; c < cases; c++) {
    const caseName = c === 0 ? `refund ${HOSTILE}` : `case-${c}`;
    for (let t = 1; t <= trials; t++) {
      const fails = spec.failing?.(c, t) ?? false;
      const workup = `w-${c}-${t}`;
      checks.push({
        spec: 'support',
        case: caseName,
        workup,
        task: `task-${c}`,
        trial: t,
        criterion: 'answer',
        metric: 'answer_contains',
        value: !fails,
        verdict: fails ? 'fail' : 'pass',
        state: fails ? 'failed' : 'passed',
        reason: fails ? `expected "refund" in the answer, found ${HOSTILE}` : 'found "refund"',
      });
      const recall = fails ? 0.4 : 0.9;
      checks.push({
        spec: 'support',
        case: caseName,
        workup,
        task: `task-${c}`,
        trial: t,
        criterion: 'recall',
        metric: 'recall',
        value: recall,
        threshold: 0.8,
        comparator: '>=',
        verdict: recall >= 0.8 ? 'pass' : 'fail',
        state: recall >= 0.8 ? 'passed' : 'failed',
        reason: `expected recall >= 0.8, found ${recall}`,
      });
    }
  }
  const time = new Date(Date.UTC(2026, 10, 22, 3, spec.minute)).toISOString();
  const stamp = time.replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
  const run: TrendRun = {
    id: `${stamp}-${spec.minute.toString(16).padStart(8, '0')}`,
    time,
    scope: { kind: 'full' },
    summary: summarize(checks),
    checks,
    trials: trendTrials(checks),
    branch: spec.branch ?? 'main',
    commit: spec.commit ?? spec.minute.toString(16).padStart(40, 'c'),
  };
  if (spec.model !== undefined || spec.agentVersion !== undefined)
    run.environment = {
      ...(spec.model !== undefined && { model: spec.model }),
      ...(spec.agentVersion !== undefined && { agentVersion: spec.agentVersion }),
    };
  return run;
}

/**
 * A small history: five runs on main (model a, then model b from the fourth; case 1 regresses in the fifth), and
 * one on a feature branch. Case 2 is flaky in the last run (3 trials, one failing).
 */
export function history(): TrendRun[] {
  return [
    makeRun({ minute: 1, model: 'model-a', agentVersion: '1.0' }),
    makeRun({ minute: 2, model: 'model-a', agentVersion: '1.0', failing: (c) => c === 3 }),
    makeRun({ minute: 3, model: 'model-a', agentVersion: '1.0', failing: (c) => c === 3 }),
    makeRun({ minute: 4, model: `model-b ${HOSTILE}`, agentVersion: '1.1', failing: (c) => c === 3 }),
    makeRun({
      minute: 5,
      model: `model-b ${HOSTILE}`,
      agentVersion: '1.1',
      failing: (c, t) => c === 1 || c === 3 || (c === 2 && t === 2),
      trials: 3,
    }),
    makeRun({ minute: 6, branch: 'feature/x', model: 'model-a', agentVersion: '1.0' }),
  ];
}

export async function fill(store: Store, runs: readonly TrendRun[]): Promise<void> {
  for (const run of runs) await store.append(run);
}
