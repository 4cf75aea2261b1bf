import { UserError } from '../errors/index.js';
import type { NeedleSpec, RubricSpec } from '../model/spec.js';
import { checkSchema } from '../parse/schema.js';
import { parseYaml } from '../parse/yaml.js';
import { type NeedleYaml, normalizeNeedle, normalizeRubric, type RubricYaml } from './normalize.js';
import { needlePlaces, rubricPlaces, yamlKeyPlace } from './places.js';

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
  const { value, places } = parseYaml(text, file);
  const problems = checkSchema(kind, value, file, (path, key) => places.where(path, key));
  if (problems.length > 0) throw new UserError(problems);
  const place = yamlKeyPlace(places);
  if (kind === 'needle')
    return { ...normalizeNeedle(value as NeedleYaml, file), places: needlePlaces(place) };
  const rubric = normalizeRubric(value as RubricYaml, file);
  return { ...rubric, places: rubricPlaces(rubric.criteria, place) };
}
