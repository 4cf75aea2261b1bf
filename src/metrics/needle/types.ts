import type { Fact } from '../../model/fact.js';
import type { SourcePosition } from '../../model/note.js';
import type { HotpotScores } from '../hotpot.js';

/**
 * Every part of a needle's score has a `value`, and `value` is null exactly when the part does not apply to the
 * workup (no note, an empty ledger, a path of no relations, an endpoint the ledger never mentions, ...), with
 * `reason` saying why. Not applicable is never scored as 0.
 */
export interface Scored<V> {
  value: V | null;
  reason?: string;
}

/** Where a claim of the note stands. */
export interface NoteLocation {
  section: string;
  text: string;
  position: SourcePosition;
}

export interface RecallScore extends Scored<0 | 1> {
  /** The answer or alias found, and the claim it was found in. */
  match?: NoteLocation & { form: string };
}

/** One hop of a chain of ledger facts. */
export interface PathHop {
  relation: string;
  fact: Fact;
  /** The first ledger entry whose results hold the fact. */
  ledgerId: string;
  /** `backward` when the hop walks the fact from object to subject (allowed unless the path is `directed`). */
  direction: 'forward' | 'backward';
  /** The entity the hop leaves from and the one it reaches. */
  from: string;
  to: string;
}

export interface TrajectoryScore extends Scored<0 | 1> {
  /** The chain that completed the path, hop by hop (the one completed earliest in the ledger). */
  path?: PathHop[];
  /** The ledger ids of the chain's facts, hop by hop. */
  ledgerIds?: string[];
  /** When no chain completes the path: the longest chain that follows a prefix of it. */
  prefix?: { relations: string[]; facts: Fact[]; ledgerIds: string[]; hops: PathHop[] };
  /** Index into the ledger of the entry that completed the path. */
  completedAt?: number;
}

export interface PivotBurden {
  /** Ledger entries up to and including the one that completed the path (failed queries count). */
  queries: number;
  /** Hops of the required path. */
  hops: number;
  /** The id of the entry that completed the path. */
  completedBy: string;
}

/** A required (bridge) fact the note asserts, and whether the assertion is cited to a query that returned it. */
export interface FactAssertion extends NoteLocation {
  fact: Fact;
  /** The ledger ids the asserting claim cites. */
  citations: string[];
  /** Those of them whose results hold the fact. */
  returnedBy: string[];
  correct: boolean;
}

export interface PrecisionScore extends Scored<number> {
  assertions: FactAssertion[];
  /** Bridge facts the note never asserts. */
  unasserted: Fact[];
}

export interface SupportingFactScore extends Scored<HotpotScores> {
  /** The facts the note cites (see `citedFacts`), restricted to the needle's relations. */
  predicted: Fact[];
  /** Required facts not cited. */
  missing: Fact[];
  /** Cited facts not required. */
  extra: Fact[];
}

export interface StoreAnswer {
  store: string;
  /** The objects the store returned for the needle's subject and relation, sorted. */
  objects: string[];
  /** The ledger ids of those answers. */
  ledgerIds: string[];
}

export interface ReconciliationScore extends Scored<number> {
  /** The question reconciled: the needle's subject and relation. */
  subject?: string;
  relation?: string;
  /** The needle's answer (or an alias) is in the note's claims. */
  surfaced?: boolean;
  /** Every store of the needle answered the question in the ledger. */
  storesQueried?: boolean;
  stores?: StoreAnswer[];
  /** What the ledger shows: the stores' answers are equal (`agree`) or not (`conflict`); absent when a store is missing. */
  verdict?: 'agree' | 'conflict';
  /** The note's words for that verdict ("corroborated", "conflict", ...); empty when it has none. */
  wording?: string[];
  /** The note says it as the ledger shows it. */
  languageMatches?: boolean;
}

/** How a workup scores against one needle (seed 001, Thread 3). */
export interface NeedleScore {
  needle: string;
  workup: string;
  recall: RecallScore;
  trajectory: TrajectoryScore;
  /** Recall 1 and trajectory 0: the note names the answer the ledger never reached. */
  guess: Scored<boolean>;
  /** Recall 1 and trajectory 1. */
  grounded: Scored<boolean>;
  precision: PrecisionScore;
  pivotBurden: Scored<PivotBurden>;
  supportingFacts: SupportingFactScore;
  /** Null (with a reason) for a needle with no `stores`. */
  reconciliation: ReconciliationScore;
}
