// Where a spec's criteria are written, found once while the spec loads: every reader (JUnit, HTML, the job summary,
// OTel events, `score`, the store) renders the place a check carries and none parses the spec again.
import type { Document, LineCounter } from 'yaml';
import type { SpecPlace } from '../model/check.js';
import type { RubricCriterion } from '../model/spec.js';
import { locate } from '../parse/locate.js';
import type { FastYaml } from '../parse/yaml-fast.js';

/** The place of `key` in the mapping at the data path `path`; undefined when the document does not write it. */
export type KeyPlace = (path: readonly string[], key: string) => SpecPlace | undefined;

/** Key places on the light path: a valid document's values and the key starts js-yaml reported. */
export function fastKeyPlace(fast: FastYaml): KeyPlace {
  return (path, key) => {
    const at = fast.keyStartAt(path, key);
    if (at === undefined) return undefined;
    const { line, column } = fast.lines().position(at);
    return { line, column };
  };
}

/** Thrown by `fastWhere` for a place the light path cannot give exactly: the caller reads the `yaml` Document. */
export class Unplaced extends Error {}

/**
 * Diagnostic places on the light path, exactly as `locate` gives them in the `yaml` Document (a data path's node,
 * or a key of the mapping at it), from the node starts js-yaml reported (`loadYamlFast` with `nodes`). Throws
 * `Unplaced` where that path cannot say exactly, so that a file is placed by one parser or the other, never a mix
 * of guesses.
 */
export function fastWhere(fast: FastYaml): (path: readonly string[], key?: string) => SpecPlace {
  return (path, key) => {
    const at = fast.startAt(path, key);
    if (at === undefined) throw new Unplaced();
    const { line, column } = fast.lines().position(at);
    return { line, column };
  };
}

/** Key places in the `yaml` package's Document (the path of files with problems or constructs js-yaml leaves). */
export function documentKeyPlace(doc: Document, lines: LineCounter): KeyPlace {
  return (path, key) => (doc.hasIn([...path, key]) ? locate(doc, lines, path, key) : undefined);
}

/**
 * The keys whose value each needle criterion checks, the first written one winning (a threshold set for the
 * criterion is preferred to the general key).
 */
const NEEDLE_KEYS: Record<string, ReadonlyArray<readonly string[]>> = {
  surfaced: [['answer']],
  traversed: [['required_path']],
  grounded: [['required_path'], ['answer']],
  'bridge-citations': [['required_cites'], ['required_path']],
  'citations-resolve': [['required_cites']],
  'citation-recall': [['thresholds', 'citation_recall']],
  'citation-precision': [['thresholds', 'citation_precision']],
  'supporting-facts': [['thresholds', 'supporting_fact_f1'], ['required_cites']],
  'pivot-burden': [['thresholds', 'pivot_burden']],
  reconciled: [['stores'], ['thresholds', 'reconciliation']],
};

function first(place: KeyPlace, paths: ReadonlyArray<readonly string[]>): SpecPlace | undefined {
  for (const path of paths) {
    const found = place(path.slice(0, -1), path[path.length - 1]!);
    if (found) return found;
  }
  return undefined;
}

/** Each needle criterion's place: the key it checks, else the needle's `id:`. */
export function needlePlaces(place: KeyPlace): Record<string, SpecPlace> {
  const id = place([], 'id');
  const places: Record<string, SpecPlace> = {};
  for (const [criterion, paths] of Object.entries(NEEDLE_KEYS)) {
    const found = first(place, paths) ?? id;
    if (found) places[criterion] = found;
  }
  return places;
}

/** Each rubric criterion's place: the `id:` of its entry under `criteria` (at `path`, for a rubric inside a case). */
export function rubricPlaces(
  criteria: readonly Pick<RubricCriterion, 'id'>[],
  place: KeyPlace,
  path: readonly string[] = [],
): Record<string, SpecPlace> {
  const places: Record<string, SpecPlace> = {};
  criteria.forEach((c, i) => {
    const found = place([...path, 'criteria', String(i)], 'id');
    if (found) places[c.id] = found;
  });
  return places;
}
