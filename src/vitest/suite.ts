import { statSync } from 'node:fs';
import { basename } from 'node:path';
import { afterAll, describe, it, type TaskMeta } from 'vitest';
import { unusedTools } from '../checks/cases.js';
import { type PlanItem, planChecks } from '../checks/plan.js';
import type { CheckOptions, Criterion } from '../checks/spec.js';
import type { VerifierOptions } from '../entailment/create.js';
import { NLI_MODEL_HINT } from '../entailment/resolve.js';
import { formatDiagnostic, UserError } from '../errors/index.js';
import { terminalSafe } from '../io/terminal.js';
import type { JudgeSpecOptions } from '../judge/from-spec.js';
import { judgeTestTimeout } from '../judge/test-timeout.js';
import type { Judge } from '../judge/types.js';
import type { Check } from '../model/check.js';
import type { EntailmentVerifier } from '../model/entailment.js';
import type { CasesSpec, Spec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { loadSpecCached } from '../specs/cache.js';
import { specKind } from '../specs/file.js';
import { workupEnvironment } from '../workup/environment.js';
import { loadWorkups, type WorkupFailure } from '../workup/load.js';
import { CODE_FRAME_MAX_BYTES, checkFailure } from './check-failure.js';
import './types.js';

/** What the plugin tells the test module a spec file generates (JSON-serialisable: it is written into the module). */
export interface SpecSuiteOptions {
  /** The spec file, absolute. */
  specFile: string;
  /** Workup folders, files and globs, absolute. */
  workups: string[];
  /** Vitest's root: a failed check of a spec file over `CODE_FRAME_MAX_BYTES` prints its places relative to it. */
  root?: string;
  /** The folder of the specs read before (`loadSpecCached`); absent, the spec file is parsed each time. */
  specCache?: string;
  /** Entailment settings when citation precision is on (`--entail`); absent when off. */
  entail?: VerifierOptions;
  /**
   * Load the workups once per worker and share them between spec files (with Vitest's `isolate: false`). Only for
   * single runs: in watch mode an edited workup must be read again.
   */
  reuseWorkups?: boolean;
  /** The judge for rubric specs (`--judge`): a URL or `replay:<cassette>`; rubric tests are skipped without one. */
  judge?: { spec: string; samples?: number } & Pick<
    JudgeSpecOptions,
    'cassette' | 'mode' | 'model' | 'timeoutMs'
  >;
}

/** An error whose message is the whole story: user mistakes are shown without a stack trace. */
function userFailure(text: string): Error {
  // File names, ids and diagnostics quote what a user or an agent wrote: shown on a terminal, it must not command it.
  const message = terminalSafe(text);
  const error = new Error(message);
  error.name = 'NeedleworkError';
  error.stack = `${error.name}: ${message}`;
  return error;
}

/**
 * One value per key for the life of the worker: the loaded workups (with `reuseWorkups`), the entailment verifier
 * (its ONNX session is loaded once and shared by every test in the worker) and the judge.
 */
function memo<T>(cache: Map<string, Promise<T>>, key: unknown, make: () => Promise<T>): Promise<T> {
  const id = JSON.stringify(key);
  let value = cache.get(id);
  if (!value) {
    value = make();
    cache.set(id, value);
  }
  return value;
}

const loaded = new Map<string, ReturnType<typeof loadWorkups>>();
const verifiers = new Map<string, Promise<EntailmentVerifier | undefined>>();
const judges = new Map<string, Promise<Judge>>();

function workupsFor(options: SpecSuiteOptions): ReturnType<typeof loadWorkups> {
  if (!options.reuseWorkups) return loadWorkups(options.workups);
  return memo(loaded, options.workups, () => loadWorkups(options.workups));
}

function verifierFor(options: VerifierOptions): Promise<EntailmentVerifier | undefined> {
  return memo(verifiers, options, () =>
    import('../entailment/create.js').then((m) => m.createVerifierFromOptions(options)),
  );
}

function judgeFor(options: NonNullable<SpecSuiteOptions['judge']>): Promise<Judge> {
  const { spec, samples: _samples, ...rest } = options;
  return memo(judges, options, () =>
    import('../judge/from-spec.js').then((m) => m.createJudgeFromSpec(spec, rest)),
  );
}

/**
 * Declares the tests of one spec file as the plan (`planChecks`) applies them: `describe(<spec id>) >
 * describe(<workup id>) > it(<criterion>)`. A spec that
 * fails validation becomes one failing test carrying its `file:line:column` errors, a workup that fails to load one
 * failing test naming it; neither stops the other workups' tests.
 */
export async function defineSpecSuite(options: SpecSuiteOptions): Promise<void> {
  let spec: Spec;
  try {
    spec = await loadSpecCached(options.specFile, options.specCache);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const id = basename(options.specFile);
    describe(id, () => {
      problemTest('is a valid spec', error.message, {
        spec: id,
        specKind: specKind(options.specFile) ?? 'needle',
        specFile: options.specFile,
        criterion: 'valid-spec',
      });
    });
    return;
  }
  const { workups, failures } = await workupsFor(options);
  const context: CheckOptions = {};
  // A model or judge that cannot be had is one failing test; the criteria it measures say they were not measured.
  const problems: Problem[] = [];
  if (spec.kind !== 'rubric' && options.entail) {
    try {
      const verifier = await verifierFor(options.entail);
      if (verifier) context.verifier = verifier;
      else
        problems.push({
          test: 'the entailment model loads',
          criterion: 'entailment-model',
          message: `no NLI model: ${NLI_MODEL_HINT}`,
        });
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push({
        test: 'the entailment model loads',
        criterion: 'entailment-model',
        message: error.message,
      });
    }
  }
  if (spec.kind !== 'needle' && options.judge) {
    const { samples } = options.judge;
    try {
      context.judge = { judge: await judgeFor(options.judge), ...(samples !== undefined && { samples }) };
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      problems.push({ test: 'the judge is ready', criterion: 'judge-ready', message: error.message });
    }
  }

  const plan = planChecks([spec], workups, context);
  const fail = failureOf(options);
  // A judged test waits as long as the judge may take, so the judge's own failure (naming it) is what a test shows.
  const timeout = context.judge && options.judge ? judgeTestTimeout(options.judge) : undefined;
  if (spec.kind === 'cases') {
    declareCases(spec, plan, failures, problems, fail, timeout);
    return;
  }
  describe(spec.id, () => {
    if (spec.kind === 'rubric' && options.judge) {
      // A recording cassette is written once, after the spec's tests, rather than after every verdict.
      const judge = options.judge;
      afterAll(async () => (await judgeFor(judge)).flush?.());
    }
    declareProblems(spec, problems, failures);
    if (!spec.workups || spec.workups.length === 0) {
      // Said, not silent: a spec without patterns is checked against every run, often more than its author meant.
      console.info(
        `needlework: ${spec.kind} ${spec.id} (${spec.file}) has no workups: patterns, so it applies to every workup (${workups.length})`,
      );
    }
    if (spec.workups?.length && !plan.some((item) => item.workups.length > 0))
      // A spec whose patterns take no run is a failing check, not Vitest's "No test found in suite".
      problemTest(
        'has a run',
        `${spec.file}: ${spec.kind} ${spec.id} matches no workup (looked for ${spec.workups.join(', ')} among ${workups.length} ${workups.length === 1 ? 'workup' : 'workups'})`,
        { ...specRef(spec), criterion: 'has-run' },
      );
    for (const { criteria, workups: taken } of plan)
      for (const workup of taken)
        describe(workup.id, workupOptions(workup), () => declareCriteria(criteria, workup, fail, timeout));
  });
}

/** What keeps a spec's criteria from being measured (a model or judge that cannot be had): a failing test of its own. */
interface Problem {
  test: string;
  criterion: string;
  message: string;
}

/** What a problem's check names: the spec (and case, or workup) it kept from being checked, and what it was. */
type ProblemRef = Pick<Check, 'spec' | 'specKind' | 'specFile' | 'case' | 'casePlace' | 'criterion'> &
  Partial<Pick<Check, 'workup'>>;

/**
 * A failing test for what kept a spec, a case or a workup from being checked (an invalid spec or case, a case with
 * no run, a workup that does not load, a model or judge that cannot be had). It carries a check like any other
 * (verdict `fail`, nothing measured, the problem as its reason), so the history, the gate and every report hold it:
 * a run whose spec broke reads as failing there too, not only in Vitest's count.
 */
function problemTest(name: string, message: string, ref: ProblemRef): void {
  const check: Check = {
    schema: 1,
    workup: '',
    ...ref,
    metric: 'problem',
    value: null,
    verdict: 'fail',
    summary: message,
  };
  it(name, (ctx) => {
    ctx.task.meta.needlework = check;
    throw userFailure(message);
  });
}

/** The spec a problem of it names. */
function specRef(spec: Spec): Pick<Check, 'spec' | 'specKind' | 'specFile'> {
  return { spec: spec.id, specKind: spec.kind, specFile: spec.file };
}

/** The problems that keep a spec's criteria from being measured, and the workups that failed to load: a test each. */
function declareProblems(spec: Spec, problems: readonly Problem[], failures: readonly WorkupFailure[]): void {
  for (const problem of problems)
    problemTest(problem.test, problem.message, { ...specRef(spec), criterion: problem.criterion });
  for (const failure of failures)
    problemTest(`${failure.path} loads`, failure.diagnostics.map(formatDiagnostic).join('\n'), {
      ...specRef(spec),
      workup: failure.path,
      criterion: 'workup-loads',
    });
}

/**
 * The options of a workup's describe: its path in the meta, for reporters that read the workup (`WorkupPreload`), and
 * the model and agent version its meta names, which the trend reporter would otherwise read from every workup's
 * meta.json while the tests run (10,000 workups: about a second of the main thread's CPU on a loaded 2-core VM).
 */
function workupOptions(workup: Workup): {
  meta?: Pick<TaskMeta, 'needleworkWorkup' | 'needleworkEnvironment'>;
} {
  if (workup.meta.path === undefined) return {};
  return {
    meta: { needleworkWorkup: workup.meta.path, needleworkEnvironment: workupEnvironment(workup.meta) },
  };
}

/**
 * How a failed check of the spec file becomes its test's error: with its places as stack frames, for Vitest to print
 * with a code frame of the first; for a spec file over `CODE_FRAME_MAX_BYTES`, as lines of its own (see
 * `checkFailure`).
 */
function failureOf(options: SpecSuiteOptions): (check: Check) => Error {
  const root = options.root;
  if (root === undefined || statSync(options.specFile).size <= CODE_FRAME_MAX_BYTES)
    return (check) => checkFailure(check);
  return (check) => checkFailure(check, root);
}

/**
 * One test per criterion of the spec, decided by the one verdict engine inside the test: a pass passes, a fail
 * throws the check's statement, a criterion that does not apply (or was not measured) is skipped with its reason.
 * The check rides on the test for the reporters.
 */
function declareCriteria(
  criteria: readonly Criterion[],
  workup: Workup,
  fail: (check: Check) => Error,
  timeout?: number,
): void {
  for (const criterion of criteria) {
    it(
      criterion.name,
      async (ctx) => {
        const check = await criterion.check(workup);
        ctx.task.meta.needlework = check;
        if (check.verdict === 'not-applicable') ctx.skip(check.summary);
        else if (check.verdict === 'fail') throw fail(check);
      },
      timeout,
    );
  }
}

/**
 * The tests of a task-cases spec: `describe(<spec>) > describe(<case> › <workup>) > it(<assertion>)`, one describe
 * level per run (a case and its run are one group: two nested levels cost Vitest a stack-trace lookup each, 10,000
 * times over). An invalid case is one failing test with its file:line:column problems, a case that no workup is a run
 * of is one failing test naming what it looked for; neither stops the other cases. A tool that the case requires but no
 * run of it ever calls, or bounds under a name close to one its runs call, is a warning (`unusedTools`).
 */
function declareCases(
  spec: CasesSpec,
  plan: readonly PlanItem[],
  failures: readonly WorkupFailure[],
  problems: readonly Problem[],
  fail: (check: Check) => Error,
  timeout?: number,
): void {
  describe(spec.id, () => {
    declareProblems(spec, problems, failures);
    for (const bad of spec.invalid) {
      describe(bad.id, () => {
        problemTest('is a valid case', bad.diagnostics.map(formatDiagnostic).join('\n'), {
          ...specRef(spec),
          case: bad.id,
          criterion: 'valid-case',
        });
      });
    }
    for (const { case: c, criteria, workups: runs } of plan) {
      if (!c) continue;
      const at = `${spec.file}${c.place ? `:${c.place.line}:${c.place.column}` : c.line ? `:${c.line}` : ''}`;
      if (runs.length === 0) {
        describe(c.id, () => {
          problemTest(
            'has a run',
            `${at}: case ${c.id} matches no workup (looked for ${c.workups.join(', ')} and meta.json task "${c.id}")`,
            {
              ...specRef(spec),
              case: c.id,
              ...(c.place && { casePlace: c.place }),
              criterion: 'has-run',
            },
          );
        });
        continue;
      }
      for (const warning of unusedTools(c, runs)) console.warn(terminalSafe(`${at}: ${warning}`));
      for (const workup of runs)
        describe(`${c.id} › ${workup.id}`, workupOptions(workup), () =>
          declareCriteria(criteria, workup, fail, timeout),
        );
    }
  });
}
