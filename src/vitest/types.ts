import type { MatchTrajectoryOptions } from '../metrics/trajectory/match.js';
import type { Fact } from '../model/fact.js';
import type { NeedleSpec, RequiredPath, RubricSpec } from '../model/spec.js';
import type { ReferenceCall, Trajectory } from '../model/trajectory.js';
import type { Workup } from '../model/workup.js';
import type { CitationPrecisionMatcherOptions } from './matchers/to-have-citation-precision.js';
import type { RubricMatcherOptions } from './matchers/to-score-rubric.js';

/** A path as the matchers take it: relation names, or the long form with endpoints. */
export type PathArgument =
  | readonly string[]
  | (Omit<RequiredPath, 'directed' | 'relations'> & { relations: readonly string[]; directed?: boolean });

/**
 * A reference trajectory: a `Trajectory` (from a gold file: `loadWorkup(dir).gold`, or `toolCallTrajectory`), a
 * `Workup` whose trajectory is the reference, or tool calls written inline, as a task case's `tool_calls`.
 */
export type ReferenceArgument = Trajectory | Workup | readonly ReferenceCall[];

/** needlework's matchers, on any `expect(workup)` and as asymmetric matchers (`expect.toTraverse(...)`). */
export interface NeedleworkMatchers<R = unknown> {
  /**
   * The ledger's results hold a connected chain of facts following `path`.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toTraverse(['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED']);
   * expect(workup).toTraverse({ relations: ['MEMBER_OF', 'CO_LOCATED', 'CO_LOCATED'], from: 'Halberd', to: 'Wren' });
   * ```
   */
  toTraverse(path: PathArgument): R;
  /**
   * The note's claims name the answer (a string, or a needle's answer or aliases).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * expect(workup).toSurface(needle); // its answer or one of its aliases
   * expect(workup).not.toSurface('Tessellate Freight');
   * ```
   */
  toSurface(answerOrNeedle: string | NeedleSpec): R;
  /**
   * The note cites a ledger id, or asserts a fact and cites an entry that returned it.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toCite('g4');
   * expect(workup).toCite({ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell' });
   * ```
   */
  toCite(factOrLedgerId: string | Pick<Fact, 'subject' | 'relation' | 'object'>): R;
  /**
   * The note surfaces the needle's answer and the ledger traversed its path: not a guess.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * expect(workup).toBeGrounded(needle);
   * expect(await loadWorkup('fixtures/workups/guessed')).not.toBeGrounded(needle);
   * ```
   */
  toBeGrounded(needle: NeedleSpec): R;
  /**
   * Every `[cite:gN]` names a ledger entry.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toHaveResolvableCitations();
   * expect(await loadWorkup('fixtures/workups/dangling')).not.toHaveResolvableCitations();
   * ```
   */
  toHaveResolvableCitations(): R;
  /**
   * Structural citation recall is at least `min` (default 1).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toHaveCitationRecall(); // every claim cited
   * expect(workup).toHaveCitationRecall(0.9);
   * ```
   */
  toHaveCitationRecall(min?: number): R;
  /**
   * HotpotQA supporting-fact F1 against `required_cites` is at least `min` (default the needle's threshold, else 1).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * expect(workup).toHaveSupportingFactF1(needle); // the needle's threshold, 0.8
   * expect(workup).toHaveSupportingFactF1(needle, 0.5);
   * ```
   */
  toHaveSupportingFactF1(needle: NeedleSpec, min?: number): R;
  /**
   * The path was completed within `max` queries (default the needle's `pivot_burden`).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * expect(workup).toHavePivotBurdenAtMost(needle); // the needle's pivot_burden, 20
   * expect(workup).toHavePivotBurdenAtMost(needle, 5);
   * ```
   */
  toHavePivotBurdenAtMost(needle: NeedleSpec, max?: number): R;
  /**
   * A cross-store needle's stores were queried and their agreement or conflict stated.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const needle = (await loadSpec('needles/wren-tie.needle.yaml')) as NeedleSpec;
   * expect(await loadWorkup('fixtures/workups/cross-store-agree')).toReconcileStores(needle);
   * expect(await loadWorkup('fixtures/workups/cross-store-conflict')).toReconcileStores(needle);
   * ```
   */
  toReconcileStores(needle: NeedleSpec): R;
  /**
   * ICD-203 estimative language: standard likelihood terms, a stated confidence, no stray hedges.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toUseEstimativeLanguage();
   * ```
   */
  toUseEstimativeLanguage(): R;
  /**
   * Tool calls match a reference with agentevals' verdicts (default: the workup's gold trajectory, strict).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * // Against the workup's gold trajectory (gold.trajectory.json), its calls a superset of the gold's:
   * expect(workup).toMatchTrajectory(undefined, { mode: 'superset' });
   * // Against tool calls written inline, their arguments ignored:
   * expect(workup).toMatchTrajectory([{ name: 'graph.neighbors' }], { mode: 'superset', toolArgs: 'ignore' });
   * ```
   */
  toMatchTrajectory(reference?: ReferenceArgument, options?: MatchTrajectoryOptions): R;
  /**
   * Seed 002 step F1 against a gold trajectory (default the workup's gold) is at least `min` (default 1).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toHaveStepF1(undefined, 0.8); // against the workup's gold trajectory
   * ```
   */
  toHaveStepF1(gold?: ReferenceArgument, min?: number): R;
  /**
   * Seed 002 tool efficiency against a gold trajectory is at least `min` (default 1).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toBeEfficient(undefined, 0.5); // call counts against the workup's gold trajectory
   * ```
   */
  toBeEfficient(gold?: ReferenceArgument, min?: number): R;
  /**
   * The share of repeated tool calls is at most `max` (default 0).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toHaveRedundancyAtMost(0.2); // at most a fifth of the calls repeat one
   * ```
   */
  toHaveRedundancyAtMost(max?: number): R;
  /**
   * The share of tool errors followed by a successful action is at least `min` (default 1).
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   * expect(workup).toRecoverFromErrors(); // every tool error followed by a successful action (none failed here)
   * ```
   */
  toRecoverFromErrors(min?: number): R;
  /**
   * ALCE citation precision with an entailment model is at least `min`. Await it.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   * import type { EntailmentVerifier } from 'needlework';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   *
   * // Any entailment model (createVerifierFromOptions for a local NLI model): here, one that finds a claim supported when its
   * // source shares a name with it.
   * const verifier: EntailmentVerifier = {
   *   async score(pairs) {
   *     return pairs.map(({ premise, hypothesis }) =>
   *       (hypothesis.match(/[A-Z][\w-]+/g) ?? []).some((name) => premise.includes(name)) ? 0.9 : 0.1,
   *     );
   *   },
   * };
   * await expect(workup).toHaveCitationPrecision(0.5, { verifier });
   * ```
   */
  toHaveCitationPrecision(min: number, options: CitationPrecisionMatcherOptions): Promise<R>;
  /**
   * An LLM judge scores the note on a rubric at or above its mark. Await it.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   * import { type Judge, type RubricSpec } from 'needlework';
   *
   * const workup = await loadWorkup('fixtures/workups/grounded');
   *
   * const rubric = (await loadSpec('needles/icd-203.rubric.yaml')) as RubricSpec;
   * // Any judge: an OpenAI-compatible one (createJudgeFromSpec), a cassette, or this one, which gives every criterion a 4.
   * const judge: Judge = {
   *   async judge() {
   *     const answer = { score: 4, rationale: 'Meets anchor 4.' } as const;
   *     return { ok: true, ...answer, raw: JSON.stringify(answer), model: 'fixed', usage: { cached: false, calls: 1 } };
   *   },
   * };
   * await expect(workup).toScoreRubric(rubric, { judge });
   * await expect(workup).toScoreRubric(rubric, { judge, criterion: 'accuracy', samples: 1 });
   * ```
   */
  toScoreRubric(rubric: RubricSpec, options: RubricMatcherOptions): Promise<R>;
  /**
   * On `expect(workups)`, the trials of one task: pass@k of the criterion is at least `min`.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * const [grounded, guessed] = await Promise.all([loadWorkup('fixtures/workups/grounded'), loadWorkup('fixtures/workups/guessed')]);
   * // Ten trials of one task, seven of them grounded:
   * const trials = Array.from({ length: 10 }, (_, i) => {
   *   const run = i < 7 ? grounded : guessed;
   *   return { ...run, id: `trial-${i + 1}`, meta: { ...run.meta, task: 'bridge', trial: i + 1 } };
   * });
   * expect(trials).toPassAtK({ needle, criterion: 'grounded' }, 1, 0.7);
   * expect(trials).toPassAtK({ needle, criterion: 'grounded' }, 3, 0.99);
   * ```
   */
  toPassAtK(criterion: import('./matchers/trial-check.js').TrialCriterion, k: number, min: number): R;
  /**
   * On `expect(workups)`, the trials of one task: pass^k of the criterion is at least `min`.
   * @example
   * ```ts
   * import { expect } from 'vitest';
   * import { loadSpec, loadWorkup, type NeedleSpec } from 'needlework';
   * import 'needlework/vitest';
   *
   * const needle = (await loadSpec('needles/compound-alpha.needle.yaml')) as NeedleSpec;
   * const grounded = await loadWorkup('fixtures/workups/grounded');
   * // Five trials of one task, all grounded: pass^3 (all three of three drawn pass) is 1.
   * const trials = Array.from({ length: 5 }, (_, i) => ({ ...grounded, id: `trial-${i + 1}`, meta: { ...grounded.meta, task: 'bridge', trial: i + 1 } }));
   * expect(trials).toPassHatK({ needle, criterion: 'grounded' }, 3, 1);
   * ```
   */
  toPassHatK(criterion: import('./matchers/trial-check.js').TrialCriterion, k: number, min: number): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the shape Vitest's own Matchers<T> declares
  interface Matchers<T = any> extends NeedleworkMatchers<T> {}
}
