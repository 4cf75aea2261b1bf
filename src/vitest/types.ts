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
  /** The ledger's results hold a connected chain of facts following `path`. */
  toTraverse(path: PathArgument): R;
  /** The note's claims name the answer (a string, or a needle's answer or aliases). */
  toSurface(answerOrNeedle: string | NeedleSpec): R;
  /** The note cites a ledger id, or asserts a fact and cites an entry that returned it. */
  toCite(factOrLedgerId: string | Pick<Fact, 'subject' | 'relation' | 'object'>): R;
  /** The note surfaces the needle's answer and the ledger traversed its path: not a guess. */
  toBeGrounded(needle: NeedleSpec): R;
  /** Every `[cite:gN]` names a ledger entry. */
  toHaveResolvableCitations(): R;
  /** Structural citation recall is at least `min` (default 1). */
  toHaveCitationRecall(min?: number): R;
  /** HotpotQA supporting-fact F1 against `required_cites` is at least `min` (default the needle's threshold, else 1). */
  toHaveSupportingFactF1(needle: NeedleSpec, min?: number): R;
  /** The path was completed within `max` queries (default the needle's `pivot_burden`). */
  toHavePivotBurdenAtMost(needle: NeedleSpec, max?: number): R;
  /** A cross-store needle's stores were queried and their agreement or conflict stated. */
  toReconcileStores(needle: NeedleSpec): R;
  /** ICD-203 estimative language: standard likelihood terms, a stated confidence, no stray hedges. */
  toUseEstimativeLanguage(): R;
  /** Tool calls match a reference with agentevals' verdicts (default: the workup's gold trajectory, strict). */
  toMatchTrajectory(reference?: ReferenceArgument, options?: MatchTrajectoryOptions): R;
  /** Seed 002 step F1 against a gold trajectory (default the workup's gold) is at least `min` (default 1). */
  toHaveStepF1(gold?: ReferenceArgument, min?: number): R;
  /** Seed 002 tool efficiency against a gold trajectory is at least `min` (default 1). */
  toBeEfficient(gold?: ReferenceArgument, min?: number): R;
  /** The share of repeated tool calls is at most `max` (default 0). */
  toHaveRedundancyAtMost(max?: number): R;
  /** The share of tool errors followed by a successful action is at least `min` (default 1). */
  toRecoverFromErrors(min?: number): R;
  /** ALCE citation precision with an entailment model is at least `min`. Await it. */
  toHaveCitationPrecision(min: number, options: CitationPrecisionMatcherOptions): Promise<R>;
  /** An LLM judge scores the note on a rubric at or above its mark. Await it. */
  toScoreRubric(rubric: RubricSpec, options: RubricMatcherOptions): Promise<R>;
  /** On `expect(workups)`, the trials of one task: pass@k of the criterion is at least `min`. */
  toPassAtK(criterion: import('./matchers/trial-check.js').TrialCriterion, k: number, min: number): R;
  /** On `expect(workups)`, the trials of one task: pass^k of the criterion is at least `min`. */
  toPassHatK(criterion: import('./matchers/trial-check.js').TrialCriterion, k: number, min: number): R;
}

declare module 'vitest' {
  // biome-ignore lint/suspicious/noExplicitAny: the shape Vitest's own Matchers<T> declares
  interface Matchers<T = any> extends NeedleworkMatchers<T> {}
}
