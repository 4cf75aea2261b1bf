// Where a spec's criteria are written, found once while the spec loads: every reader (JUnit, HTML, the job summary,
// OTel events, `score`, the store) renders the place a check carries and none parses the spec again.
import type { SpecPlace } from '../model/check.js';
import type { RubricCriterion } from '../model/spec.js';
import type { YamlPlaces } from '../parse/yaml.js';

/** The place of `key` in the mapping at the data path `path`; undefined when the document does not write it. */
export type KeyPlace = (path: readonly string[], key: string) => SpecPlace | undefined;

/** Key places in a YAML document read by `parseYaml`. */
export function yamlKeyPlace(places: YamlPlaces): KeyPlace {
  return (path, key) => places.keyAt(path, key);
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
