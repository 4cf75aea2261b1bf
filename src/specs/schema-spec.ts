import { UserError } from '../errors/index.js';
import type { NeedleSpec, RubricSpec } from '../model/spec.js';
import { locate } from '../parse/locate.js';
import { checkSchema, satisfiesSchema } from '../parse/schema.js';
import { parseYaml } from '../parse/yaml.js';
import { loadYamlFast } from '../parse/yaml-fast.js';
import { type NeedleYaml, normalizeNeedle, normalizeRubric, type RubricYaml } from './normalize.js';
import { documentKeyPlace, fastKeyPlace, type KeyPlace, needlePlaces, rubricPlaces } from './places.js';

/**
 * Parses and validates a needle or rubric spec's YAML text (one small document each). Throws a `UserError` holding
 * every problem, each at its line and column: `needles/bridge.needle.yaml:12:5: required_path.relations[1] must be
 * a string`.
 */
export function parseSchemaSpec(
  text: string,
  file: string,
  kind: 'needle' | 'rubric',
): NeedleSpec | RubricSpec {
  const { value, place } = validValue(text, file, kind);
  if (kind === 'needle')
    return { ...normalizeNeedle(value as NeedleYaml, file), places: needlePlaces(place) };
  const rubric = normalizeRubric(value as RubricYaml, file);
  return { ...rubric, places: rubricPlaces(rubric.criteria, place) };
}

/**
 * The spec's values once they satisfy the schema. A valid spec is read on js-yaml's light path (its values only); a
 * spec with any problem, or a construct that path leaves alone, is read again with the `yaml` Document, which places
 * every diagnostic.
 */
function validValue(
  text: string,
  file: string,
  kind: 'needle' | 'rubric',
): { value: unknown; place: KeyPlace } {
  const fast = loadYamlFast(text, { keys: true });
  if (fast && satisfiesSchema(kind, fast.value))
    return { value: fast.value, place: fastKeyPlace(fast, text) };
  const { value, doc, lines } = parseYaml(text, file);
  const problems = checkSchema(kind, value, file, (path, key) => locate(doc, lines, path, key));
  if (problems.length > 0) throw new UserError(problems);
  return { value, place: documentKeyPlace(doc, lines) };
}
