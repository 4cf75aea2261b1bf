import type { LedgerEntry } from './ledger.js';
import type { Note } from './note.js';
import type { Trajectory } from './trajectory.js';

/** Where a workup came from, and any metadata its `meta.json` (or the `meta` field of a workup JSON) carried. */
export interface WorkupMeta {
  /** The folder or file it was loaded from; absent for a workup built in memory. */
  path?: string;
  /** The task this run is one trial of (`meta.json` `task`); a workup without one is its own task of one trial. */
  task?: string;
  /** What the agent was asked (`meta.json` `input`), for the reports and the judge. */
  input?: string;
  /** Which trial of its task this run is (`meta.json` `trial`): a 1-based number or a label. */
  trial?: number | string;
  /**
   * The task's outcome as the source recorded it (tau-bench's reward, SWE-agent's exit status), kept apart from
   * whether the run produced a final answer. Absent: the source records no outcome (unknown).
   */
  outcome?: {
    /** Whether the task succeeded; `null` when the source records an outcome that says neither. */
    succeeded: boolean | null;
    /** The source's own reward or score, when it has one (tau-bench: 0 or 1). */
    reward?: number;
    /** The source's own status word (SWE-agent: `submitted`, `exit_cost`, ...). */
    status?: string;
  };
  /** The OpenTelemetry trace the run came from (lowercase hex ids), so evaluation results can be parented to it. */
  trace?: { traceId: string; spanId?: string };
  [key: string]: unknown;
}

/** One recorded agent run: the note it wrote, the queries it made, the steps it took. */
export interface Workup {
  /** The folder or file name, or the `id` its JSON gives. */
  id: string;
  note?: Note;
  /** The provenance ledger; empty when the run recorded none. */
  ledger: LedgerEntry[];
  trajectory?: Trajectory;
  /** A reference trajectory to compare against (`gold.trajectory.json`). */
  gold?: Trajectory;
  meta: WorkupMeta;
}
