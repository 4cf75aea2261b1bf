import { readFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import type { Check } from '../../model/check.js';
import { locate, type Place } from '../../parse/locate.js';
import { yamlPackage } from '../../parse/yaml-package.js';

/**
 * Where in a needle spec each needle criterion is declared: the key whose value the criterion checks. A criterion
 * is found under either spelling (`citation recall` as the YAML tests name it, `citation-recall` as the matchers do).
 * The first key present wins, so a threshold written for the criterion is preferred to the general key.
 */
const NEEDLE_KEYS: Record<string, ReadonlyArray<readonly string[]>> = {
  surfaced: [['answer']],
  traversed: [['required_path']],
  grounded: [['required_path'], ['answer']],
  'citations-resolve': [['required_cites']],
  'citation-recall': [['thresholds', 'citation_recall']],
  'citation-precision': [['thresholds', 'citation_precision']],
  'bridge-citations': [['required_cites'], ['required_path']],
  'supporting-facts': [['thresholds', 'supporting_fact_f1'], ['required_cites']],
  'pivot-burden': [['thresholds', 'pivot_burden']],
  reconciled: [['stores'], ['thresholds', 'reconciliation']],
};

/**
 * The place (1-based line and column) of a criterion in a spec's YAML text: for a needle, the key the criterion
 * checks (`required_path` for `traversed`); for a rubric, the `id` of the criterion's entry under `criteria`. A
 * criterion the spec does not name points at the spec's `id` key; undefined when the text is not a YAML mapping.
 */
export function criterionPlace(text: string, criterion: string): Place | undefined {
  const { isMap, isNode, LineCounter, parseDocument } = yamlPackage();
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  if (!isMap(doc.contents)) return undefined;
  const name = criterion.replaceAll(' ', '-');
  for (const path of NEEDLE_KEYS[name] ?? []) {
    if (doc.hasIn(path)) return locate(doc, lines, path.slice(0, -1), path[path.length - 1]);
  }
  const criteria = doc.getIn(['criteria']);
  if (isNode(criteria) && 'items' in criteria && Array.isArray(criteria.items)) {
    const index = criteria.items.findIndex((item) => isMap(item) && String(item.get('id')) === criterion);
    if (index >= 0) return locate(doc, lines, ['criteria', String(index)], 'id');
  }
  return locate(doc, lines, [], 'id');
}

/**
 * Reads each spec file the checks name once and finds their criteria's places. A spec that cannot be read (moved,
 * merged from another machine) is simply left out: the caller falls back to the test's own place.
 *
 * @param root the folder a relative `specFile` is resolved from.
 * @returns a lookup by check: the place of its criterion in its spec file, or undefined.
 */
export async function criterionPlaces(
  checks: readonly Check[],
  root: string,
): Promise<(check: Check) => Place | undefined> {
  const texts = new Map<string, string | undefined>();
  for (const file of new Set(checks.flatMap((check) => (check.specFile ? [check.specFile] : [])))) {
    texts.set(file, await readFile(resolve(root, file), 'utf8').catch(() => undefined));
  }
  const places = new Map<string, Place | undefined>();
  return (check) => {
    const text = check.specFile === undefined ? undefined : texts.get(check.specFile);
    if (text === undefined) return undefined;
    const key = `${check.specFile}\0${check.criterion}`;
    if (!places.has(key)) places.set(key, criterionPlace(text, check.criterion));
    return places.get(key);
  };
}
