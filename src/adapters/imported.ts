import type { Diagnostic } from '../errors/index.js';
import type { Trajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';

/** One workup an importer made from (part of) a file, before it is written as a folder. */
export interface ImportedWorkup {
  /** The folder name when a file holds several workups (unique within the file), e.g. `task-3-trial-0`. */
  name: string;
  trajectory: Trajectory;
  /** The reference trajectory the source records (tau-bench's expected actions), for `gold.trajectory.json`. */
  gold?: Trajectory;
  /** What `meta.json` gets (never `path`): the task outcome, task id, trace ids and the source's own figures; empty: no meta.json. */
  meta: WorkupMeta;
  /** What the source held that this workup could not take, one sentence each, for the import summary. */
  dropped: string[];
  /**
   * How many tool calls the source shows, by the format's own evidence (actions, tool spans by name). The import
   * fails when it took none of them. Absent: the format's tool calls are exactly those taken.
   */
  sourceToolCalls?: number;
}

/** Everything one file gave: its workups, and the elements that could not be read (the rest were imported). */
export interface ImportResult {
  workups: ImportedWorkup[];
  /** Bad elements of a list (results, spans), each at its file, line and column. */
  failed: Diagnostic[];
  /** The file is a collection (a results list, several traces): each workup gets a folder of its own. */
  many: boolean;
}
