import type { Fact } from '../../model/fact.js';
import type { Note } from '../../model/note.js';
import type { NeedleSpec } from '../../model/spec.js';
import type { Workup } from '../../model/workup.js';
import { claimUnits } from '../citations/units.js';
import { entriesById, type IndexedUnit, indexUnits } from './cited-facts.js';
import { factId } from './fact-id.js';
import { traversePath } from './path.js';
import { bridgePrecision } from './precision.js';
import { needleRecall } from './recall.js';
import { reconcileStores } from './reconcile.js';
import { supportingFacts } from './supporting-facts.js';
import type { NeedleScore, Scored } from './types.js';

// A note's claim units, normalized once and shared by every needle scored against it (derived data only: the
// note is never modified, and a note no longer referenced is collected with its entry).
const indexed = new WeakMap<Note, IndexedUnit[]>();
function unitsOf(note: Note): IndexedUnit[] {
  let units = indexed.get(note);
  if (!units) {
    units = indexUnits(claimUnits(note));
    indexed.set(note, units);
  }
  return units;
}

/**
 * Scores one workup against one planted needle (seed 001, Thread 3: recall, trajectory, precision, pivot burden;
 * extended with supporting-fact F1 and cross-store reconciliation). Pure: the same workup and needle give the same
 * score. Each part is documented where it is computed (`needleRecall`, `traversePath`, `bridgePrecision`,
 * `supportingFacts`, `reconcileStores`); `guess` and `grounded` combine recall and trajectory, and are null when
 * either is; `pivotBurden` is the queries (ledger entries, failed ones included) up to and including the one that
 * completed the path, and the path's hops, null when the path was not completed.
 */
export function scoreNeedle(workup: Workup, needle: NeedleSpec): NeedleScore {
  const note = workup.note;
  const units = note ? unitsOf(note) : [];
  const recall = needleRecall(
    note,
    units.map((u) => u.unit),
    needle,
  );
  const trajectory = traversePath(workup.ledger, needle.required_path);

  const inapplicable =
    recall.value === null
      ? `recall is not applicable (${recall.reason})`
      : trajectory.value === null
        ? `trajectory is not applicable (${trajectory.reason})`
        : undefined;
  const combine = (value: boolean): Scored<boolean> =>
    inapplicable === undefined ? { value } : { value: null, reason: inapplicable };
  const guess = combine(recall.value === 1 && trajectory.value === 0);
  const grounded = combine(recall.value === 1 && trajectory.value === 1);

  const pivotBurden: NeedleScore['pivotBurden'] =
    trajectory.value === 1
      ? {
          value: {
            queries: trajectory.completedAt! + 1,
            hops: needle.required_path.relations.length,
            completedBy: workup.ledger[trajectory.completedAt!]!.id,
          },
        }
      : {
          value: null,
          reason:
            trajectory.value === null
              ? `trajectory is not applicable (${trajectory.reason})`
              : 'the ledger never completes the path',
        };

  const bridge: Fact[] =
    needle.required_cites.length > 0 ? needle.required_cites : (trajectory.path ?? []).map((hop) => hop.fact);
  const unique = [...new Map(bridge.map((f) => [factId(f), f])).values()];
  const entries = entriesById(workup.ledger);

  return {
    needle: needle.id,
    workup: workup.id,
    recall,
    trajectory,
    guess,
    grounded,
    precision: bridgePrecision(note, units, unique, entries),
    pivotBurden,
    supportingFacts: supportingFacts(note, units, entries, needle),
    reconciliation: reconcileStores(note, workup.ledger, needle, recall),
  };
}
