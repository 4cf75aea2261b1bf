import { describeScope } from '../history/scope.js';
import type { RunHead } from '../history/store/rows.js';
import type { TrendCheck } from '../history/types.js';
import type { CheckRow, RunRow } from './client/types.js';

/** A run's head as the API sends it: flat, its scope in words. */
export function runRow(head: RunHead): RunRow {
  const s = head.summary;
  return {
    id: head.id,
    time: head.time,
    ...(head.commit !== undefined && { commit: head.commit }),
    ...(head.branch !== undefined && { branch: head.branch }),
    ...(head.baseBranch !== undefined && { baseBranch: head.baseBranch }),
    ...(head.environment?.model !== undefined && { model: head.environment.model }),
    ...(head.environment?.agentVersion !== undefined && { agentVersion: head.environment.agentVersion }),
    scope: describeScope(head.scope),
    checks: s.checks,
    passed: s.passed,
    failed: s.failed,
    notApplicable: s.notApplicable,
    skipped: s.skipped,
    passRate: s.passRate,
  };
}

/**
 * A check as the API sends it: the stored check's fields but what the One run view never reads (its workup's path and
 * its evidence, which the workup's own answer carries), NaN and Infinity (which JSON cannot carry) as null.
 */
export function checkRow(check: TrendCheck): CheckRow {
  const { workupPath: _path, evidence: _evidence, ...row } = check;
  if (typeof row.value === 'number' && !Number.isFinite(row.value)) row.value = null;
  return row;
}
