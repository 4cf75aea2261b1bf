import type { Fact } from './fact.js';

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
  file?: string;
}

export type Spec = NeedleSpec | RubricSpec;
