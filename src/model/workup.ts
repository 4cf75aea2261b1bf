import type { LedgerEntry } from './ledger.js';
import type { Note } from './note.js';
import type { Trajectory } from './trajectory.js';

/** Where a workup came from, and any metadata its `meta.json` (or the `meta` field of a workup JSON) carried. */
export interface WorkupMeta {
  /** The folder or file it was loaded from; absent for a workup built in memory. */
  path?: string;
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
