import { basename } from 'node:path';
import { afterAll, describe, it, type TestContext } from 'vitest';
import type { VerifierOptions } from '../entailment/create.js';
import { formatDiagnostic, UserError } from '../errors/index.js';
import type { JudgeSpecOptions } from '../judge/from-spec.js';
import type { Judge } from '../judge/types.js';
import type { EntailmentVerifier } from '../model/entailment.js';
import type { NeedleSpec, RubricSpec } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { appliesTo } from '../specs/applies.js';
import { loadSpec } from '../specs/load.js';
import { trialOf } from '../trials/identity.js';
import { loadWorkups, type WorkupFailure } from '../workup/load.js';
import { type CriterionContext, needleCriteria } from './criteria.js';
import type { CheckMeta } from './meta.js';
import './types.js';

/** What the plugin tells the test module a spec file generates (JSON-serialisable: it is written into the module). */
export interface SpecSuiteOptions {
  /** The spec file, absolute. */
  specFile: string;
  /** Workup folders, files and globs, absolute. */
  workups: string[];
  /** Entailment settings when citation precision is on (`--entail`); absent when off. */
  entail?: VerifierOptions;
  /**
   * Load the workups once per worker and share them between spec files (with Vitest's `isolate: false`). Only for
   * single runs: in watch mode an edited workup must be read again.
   */
  reuseWorkups?: boolean;
  /** The judge for rubric specs (`--judge`): a URL or `replay:<cassette>`; rubric tests are skipped without one. */
  judge?: { spec: string; samples?: number } & Pick<JudgeSpecOptions, 'cassette' | 'mode' | 'model'>;
}

/** An error whose message is the whole story: user mistakes are shown without a stack trace. */
function userFailure(message: string): Error {
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

function baseMeta(spec: NeedleSpec | RubricSpec, workup: Workup, criterion: string): CheckMeta {
  return {
    schema: 1,
    spec: spec.id,
    specKind: spec.kind,
    ...(spec.file !== undefined && { specFile: spec.file }),
    workup: workup.id,
    ...(workup.meta.path !== undefined && { workupPath: workup.meta.path }),
    ...trialOf(workup),
    criterion,
    metric: criterion,
    value: null,
    verdict: 'not-applicable',
  };
}

function skipAs(ctx: TestContext, reason: string): void {
  const meta = ctx.task.meta.needlework;
  if (meta) ctx.task.meta.needlework = { ...meta, summary: reason };
  ctx.skip(reason);
}

/**
 * Declares the tests of one spec file: `describe(<spec id>) > describe(<workup id>) > it(<criterion>)`. A spec that
 * fails validation becomes one failing test carrying its `file:line:column` errors, a workup that fails to load one
 * failing test naming it; neither stops the other workups' tests.
 */
export async function defineSpecSuite(options: SpecSuiteOptions): Promise<void> {
  let spec: NeedleSpec | RubricSpec;
  try {
    spec = await loadSpec(options.specFile);
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    describe(basename(options.specFile), () => {
      it('is a valid spec', () => {
        throw userFailure(error.message);
      });
    });
    return;
  }
  const { workups, failures } = await workupsFor(options);
  const context: CriterionContext = {};
  let modelProblem: string | undefined;
  if (spec.kind === 'needle' && options.entail) {
    try {
      const verifier = await verifierFor(options.entail);
      if (verifier) context.verifier = verifier;
      else modelProblem = 'no NLI model: give --model <dir|hf:owner/name> or set NEEDLEWORK_NLI_MODEL';
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      modelProblem = error.message;
    }
  }

  describe(spec.id, () => {
    if (spec.kind === 'rubric' && options.judge) {
      // A recording cassette is written once, after the spec's tests, rather than after every verdict.
      const judge = options.judge;
      afterAll(async () => (await judgeFor(judge)).flush?.());
    }
    if (modelProblem !== undefined) {
      const problem = modelProblem;
      it('the entailment model loads', () => {
        throw userFailure(problem);
      });
    }
    for (const failure of failures) declareFailure(failure);
    for (const workup of workups.filter((w) => appliesTo(spec.workups, w.id))) {
      describe(workup.id, () => {
        if (spec.kind === 'needle') declareNeedle(spec, workup, context);
        else declareRubric(spec, workup, options.judge);
      });
    }
  });
}

function declareFailure(failure: WorkupFailure): void {
  it(`${failure.path} loads`, () => {
    throw userFailure(failure.diagnostics.map(formatDiagnostic).join('\n'));
  });
}

function declareNeedle(needle: NeedleSpec, workup: Workup, context: CriterionContext): void {
  for (const criterion of needleCriteria(needle, context)) {
    it(criterion.name, async (ctx) => {
      ctx.task.meta.needlework = baseMeta(needle, workup, criterion.name);
      if (criterion.needs === 'note' && !workup.note) return skipAs(ctx, 'the workup has no note');
      await criterion.assert(ctx.expect, workup, context);
    });
  }
}

function declareRubric(rubric: RubricSpec, workup: Workup, judge: SpecSuiteOptions['judge']): void {
  for (const criterion of rubric.criteria) {
    it(criterion.id, async (ctx) => {
      ctx.task.meta.needlework = baseMeta(rubric, workup, criterion.id);
      if (!judge) return skipAs(ctx, 'no judge configured (needlework run --judge <url|replay:cassette>)');
      if (!workup.note) return skipAs(ctx, 'the workup has no note');
      await ctx.expect(workup).toScoreRubric(rubric, {
        judge: await judgeFor(judge),
        criterion: criterion.id,
        ...(judge.samples !== undefined && { samples: judge.samples }),
      });
    });
  }
}
