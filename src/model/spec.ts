import type { Diagnostic } from '../errors/diagnostic.js';
import type { SpecPlace } from './check.js';
import type { Fact } from './fact.js';
import type { ReferenceCall, Trajectory } from './trajectory.js';

/** The graph path a needle requires, in its long form. */
export interface RequiredPath {
  /** The relations to traverse, in order. */
  relations: string[];
  /** The entity the path starts at, when it is fixed. */
  from?: string;
  /** The entity the path ends at, when it is fixed. */
  to?: string;
  /** When true, each edge must be walked subject to object; otherwise either way. */
  directed: boolean;
}

/** Pass marks for a needle's scores; each is optional and has a documented default where the metric needs one. */
export interface NeedleThresholds {
  recall?: number;
  trajectory?: number;
  precision?: number;
  citation_recall?: number;
  citation_precision?: number;
  supporting_fact_f1?: number;
  /** The most queries allowed until the path is complete. */
  pivot_burden?: number;
  reconciliation?: number;
}

/** A planted answer, the path that must be walked to reach it, and the citations it must carry. */
export interface NeedleSpec {
  kind: 'needle';
  id: string;
  title?: string;
  description?: string;
  answer: string;
  aliases: string[];
  required_path: RequiredPath;
  required_cites: Fact[];
  /** The stores a cross-store needle must reconcile; empty for a single-store needle. */
  stores: string[];
  thresholds: NeedleThresholds;
  /** The workup ids (with `*` wildcards) the needle applies to; absent: every workup. */
  workups?: string[];
  /** The file the spec was read from. */
  file?: string;
  /** Where each criterion is written in `file` (the key it checks), by criterion id, found when the spec loads. */
  places?: Record<string, SpecPlace>;
}

export type AnchorLevel = 1 | 2 | 3 | 4 | 5;

export interface RubricCriterion {
  id: string;
  title: string;
  question: string;
  /** What a score of 1 to 5 means, each written out. */
  anchors: Record<AnchorLevel, string>;
  /** Weight in the rubric's weighted total (default 1). */
  weight: number;
  /** The lowest passing score, 1 to 5. */
  threshold?: number;
}

/** Anchored 1-5 criteria a judge scores, one call per criterion. */
export interface RubricSpec {
  kind: 'rubric';
  id: string;
  title?: string;
  description?: string;
  criteria: RubricCriterion[];
  threshold?: number;
  /** The workup ids (with `*` wildcards) the rubric applies to; absent: every workup. */
  workups?: string[];
  /**
   * Who the judge is and what it assesses ("an impartial assessor of customer-support conversations"), placed before
   * the fixed rules every judge follows. Absent: a neutral assessor of an AI agent's work.
   */
  system?: string;
  file?: string;
  /** Where each criterion is written in `file` (its `id:` under `criteria`), by criterion id. */
  places?: Record<string, SpecPlace>;
}

/** A tool call a case expects: the tool's name and, optionally, its arguments. */
export type ExpectedToolCall = ReferenceCall;

/** How the workup's tool calls are compared with a case's expected calls (agentevals' trajectory match). */
export interface ToolCallsAssertion {
  calls: ExpectedToolCall[];
  match: 'strict' | 'unordered' | 'subset' | 'superset';
  args: 'exact' | 'ignore' | 'subset' | 'superset';
  /** Per tool: an argument mode, or the argument keys (dot paths) that must be equal. */
  overrides?: Record<string, 'exact' | 'ignore' | 'subset' | 'superset' | string[]>;
}

/** Rules on which tools are called, how often and in what order. */
export interface ToolsAssertion {
  /** Tools that must be called, each at least `min` times (default 1). */
  must_call?: Array<{ name: string; min: number }>;
  must_not_call?: string[];
  /** The most calls allowed, per tool. */
  max_calls?: Record<string, number>;
  /** Tools that must be called in this order; other calls may come between. */
  order?: string[];
}

/** Checks on the run's final answer; text comparisons are case-sensitive unless HotpotQA-normalized (`exact_match`, `f1`). */
export interface AnswerAssertion {
  equals?: string;
  contains?: string[];
  not_contains?: string[];
  /** A JavaScript regular expression, compiled when the spec loads. */
  regex?: { source: string; flags: string };
  one_of?: string[];
  /** HotpotQA exact match after its answer normalization. */
  exact_match?: string;
  /** HotpotQA token F1 against `value`, at least `min`. */
  f1?: { value: string; min: number };
}

/** Thresholds on seed 002's step metrics against the case's gold trajectory, and budgets on the run's resources. */
export interface StepsAssertion {
  step_precision?: number;
  step_recall?: number;
  step_f1?: number;
  efficiency?: number;
  /** The most redundancy allowed (share of repeated calls). */
  redundancy?: number;
  error_recovery?: number;
  similarity?: number;
  max_steps?: number;
  max_tool_calls?: number;
  max_tool_errors?: number;
  max_tokens?: number;
  max_cost_usd?: number;
  max_latency_ms?: number;
}

/** Citation checks for any agent that cites its sources as `[cite:id]` in its note. */
export interface GroundedAssertion {
  citations_resolve?: boolean;
  max_uncited?: number;
  citation_recall?: number;
  citation_precision?: number;
}

/** Everything a case may expect of a run; each key is one check (one test). */
export interface CaseAssertions {
  tool_calls?: ToolCallsAssertion;
  tools?: ToolsAssertion;
  answer?: AnswerAssertion;
  steps?: StepsAssertion;
  grounded?: GroundedAssertion;
  /** A rubric the judge scores the run on, one check per criterion. */
  judge?: RubricSpec;
}

/** One task of a data set: what it asks and what a correct run of it must show. */
export interface TaskCase {
  id: string;
  input?: string;
  /** The workups that are runs of this case, by id with `*` wildcards. Default: the case id, and runs whose `meta.json` task is the case id. */
  workups: string[];
  /** A reference trajectory for the step metrics (from the case's `gold` calls); default: the workup's own gold. */
  gold?: Trajectory;
  expect: CaseAssertions;
  /** Where the case starts in its file (1-based line), for annotations. */
  line?: number;
  /** Where the case's `id:` is written in its file. */
  place?: SpecPlace;
  /**
   * Where each assertion is written, by its key under `expect` (`tool_calls`, `answer`) and by kind and key
   * (`tools.must_call`, `steps.max_tool_errors`): in the case, or in the file's `defaults` when it comes from there.
   */
  places?: Record<string, SpecPlace>;
}

/** A data set of task cases (`*.cases.yaml`), each mapped to its runs, each run checked against the case. */
export interface CasesSpec {
  kind: 'cases';
  id: string;
  title?: string;
  description?: string;
  cases: TaskCase[];
  /** The cases that failed validation, each with its problems: one failing test each, never stopping the others. */
  invalid: Array<{ id: string; line?: number; diagnostics: Diagnostic[] }>;
  /** Cases may not name a spec-wide pattern: each case names its own runs. */
  workups?: undefined;
  file?: string;
}

export type Spec = NeedleSpec | RubricSpec | CasesSpec;
