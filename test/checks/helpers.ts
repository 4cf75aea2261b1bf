import { checkWorkup } from '../../src/checks/check-workup.js';
import type { CheckOptions } from '../../src/checks/spec.js';
import { callsOf } from '../../src/checks/trajectory-evidence.js';
import { alignTrajectory, type MatchTrajectoryOptions } from '../../src/metrics/trajectory/match.js';
import type { Check } from '../../src/model/check.js';
import type { CasesSpec } from '../../src/model/spec.js';
import { makeStep, makeTrajectory, type Trajectory } from '../../src/model/trajectory.js';
import type { Workup } from '../../src/model/workup.js';
import { parseSpec } from '../../src/specs/load.js';

/** A task-cases spec from YAML text, as `x.cases.yaml`. */
export function cases(yaml: string): CasesSpec {
  return parseSpec(yaml, 'x.cases.yaml') as CasesSpec;
}

/** One case `c` expecting `expect` (YAML under `expect:`, indented by the caller's block). */
export function oneCase(expect: string, extra = ''): CasesSpec {
  return cases(`id: set\ncases:\n  - id: c\n${extra}    expect:\n${expect.replace(/^/gm, '      ')}\n`);
}

export interface CallSpec {
  name: string;
  args?: Record<string, unknown>;
  error?: string;
}

/** A run of case `c` whose trajectory makes these tool calls (each answered by an observation) then answers. */
export function run(
  calls: readonly CallSpec[],
  answer: string | null = 'done',
  extra: Partial<Trajectory> = {},
): Workup {
  let id = 0;
  const steps = calls.flatMap((c) => [
    makeStep({ step_id: ++id, step_type: 'tool_call', tool_name: c.name, tool_input: c.args ?? {} }),
    makeStep({
      step_id: ++id,
      step_type: 'observation',
      tool_name: c.name,
      tool_output: 'ok',
      error: c.error ?? null,
    }),
  ]);
  return {
    id: 'c',
    ledger: [],
    trajectory: makeTrajectory({ task_id: 'c', steps, final_answer: answer, ...extra }),
    meta: {},
  };
}

/** The checks of a workup against a spec, by criterion. */
export async function checksBy(
  spec: CasesSpec,
  workup: Workup,
  options: CheckOptions = {},
): Promise<Record<string, Check>> {
  return Object.fromEntries((await checkWorkup(workup, [spec], options)).map((c) => [c.criterion, c]));
}

/**
 * A tool-calls check's evidence in the whole form (every check's before passes were slim, so what stores hold from
 * then; a failure's still, but for its `actual`): the workup's calls matched against the reference's.
 */
export function wholeForm(workup: Workup, reference: Workup, options: MatchTrajectoryOptions = {}) {
  const { alignment, ...match } = alignTrajectory(workup.trajectory!, reference.trajectory!, options);
  return {
    mode: options.mode ?? 'strict',
    args: options.toolArgs ?? 'exact',
    missing: match.missing,
    extra: match.extra,
    ...(match.reason && { reason: match.reason }),
    reference: callsOf(reference.trajectory!),
    alignment,
  };
}
