import { type Diagnostic, UserError } from '../errors/index.js';
import type { NeedleSpec, RubricSpec } from '../model/spec.js';
import { locate } from '../parse/locate.js';
import { checkSchema, satisfiesSchema } from '../parse/schema.js';
import { parseYaml } from '../parse/yaml.js';
import { loadYamlFast } from '../parse/yaml-fast.js';
import { type NeedleYaml, normalizeNeedle, normalizeRubric, type RubricYaml } from './normalize.js';
import {
  documentKeyPlace,
  fastKeyPlace,
  fastWhere,
  type KeyPlace,
  needlePlaces,
  rubricPlaces,
  Unplaced,
} from './places.js';

/**
 * Parses and validates a needle or rubric spec's YAML text (one small document each). Throws a `UserError` holding
 * every problem, each at its line and column: `needles/bridge.needle.yaml:12:5: required_path.relations[1] must be
 * a string`.
 */
export function parseSchemaSpec(
  text: string,
  file: string,
  kind: 'needle' | 'rubric',
  { light = true }: { light?: boolean } = {},
): NeedleSpec | RubricSpec {
  const { value, place } = validValue(text, file, kind, light);
  if (kind === 'needle')
    return { ...normalizeNeedle(value as NeedleYaml, file), places: needlePlaces(place) };
  const rubric = normalizeRubric(value as RubricYaml, file);
  return { ...rubric, places: rubricPlaces(rubric.criteria, place) };
}

/**
 * The spec's values once they satisfy the schema. A spec is read on js-yaml's light path (its values, and where its
 * nodes start, which place its problems); one with a construct that path leaves alone, or a problem it cannot place
 * exactly, is read again with the `yaml` Document, which places every diagnostic the same way. `light: false` takes
 * the Document path alone (the differential tests compare the two).
 */
function validValue(
  text: string,
  file: string,
  kind: 'needle' | 'rubric',
  light: boolean,
): { value: unknown; place: KeyPlace } {
  const fast = light ? loadYamlFast(text, { file }) : undefined;
  if (fast) {
    if (satisfiesSchema(kind, fast.value)) return { value: fast.value, place: fastKeyPlace(fast) };
    let problems: Diagnostic[] | undefined;
    try {
      problems = checkSchema(kind, fast.value, file, fastWhere(fast));
    } catch (error) {
      if (!(error instanceof Unplaced)) throw error;
    }
    if (problems) throw new UserError(problems);
  }
  const { value, doc, lines } = parseYaml(text, file);
  const problems = checkSchema(kind, value, file, (path, key) => locate(doc, lines, path, key));
  if (problems.length > 0) throw new UserError(problems);
  return { value, place: documentKeyPlace(doc, lines) };
}
