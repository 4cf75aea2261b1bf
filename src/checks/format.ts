import type { Check as CheckMeta } from '../model/check.js';

/**
 * A metric value as people read it: scores to three decimals (enough to see a 0.001 drift, few enough to scan),
 * counts as they are, booleans as words, and `n/a` when the metric does not apply.
 */
export function formatValue(value: number | boolean | null | undefined, unit?: string): string {
  if (value === null || value === undefined) return 'n/a';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  const text = Number.isInteger(value) ? String(value) : String(Number(value.toFixed(3)));
  if (unit === 'score-1-5') return `${text} of 5`;
  return unit ? `${text} ${unit}` : text;
}

/**
 * A check's value as people read it: `nothing` for a check that failed with no value (the run did not produce what it
 * reads, or never completed what it measures), where `n/a` would read as not applicable.
 */
export function checkValue(check: Pick<CheckMeta, 'value' | 'verdict' | 'unit'>): string {
  return check.value === null && check.verdict === 'fail' ? 'nothing' : formatValue(check.value, check.unit);
}

/**
 * The one-line statement of a check: `expected recall >= 0.8, got 0.5`, followed by the check's own summary when it
 * has one. It is the failure message of a YAML-spec test, the JUnit failure message, the HTML report's line for the
 * check and the detail of `needlework score`'s line, so a check reads the same everywhere.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { checkWorkup, expectationText, loadSpecs, loadWorkup } from 'needlework';
 *
 * const { needles } = await loadSpecs('needles/compound-alpha.needle.yaml');
 * const [check] = await checkWorkup(await loadWorkup('fixtures/workups/guessed'), needles);
 * // What was expected against what was found, as a failing test's message reads it:
 * assert.equal(typeof expectationText(check!), 'string');
 * console.log(expectationText(check!));
 * ```
 */
export function expectationText(meta: CheckMeta): string {
  const got = checkValue(meta);
  const head =
    meta.threshold === undefined
      ? `${meta.metric} = ${got}`
      : `expected ${meta.metric} ${meta.comparator ?? '>='} ${formatValue(meta.threshold, meta.unit)}, got ${got}`;
  return meta.summary ? `${head}: ${meta.summary}` : head;
}

/** A numeric reading of a metric value for means, charts and trends: booleans as 1/0, `null` as absent. */
export function numericValue(value: number | boolean | null | undefined): number | undefined {
  if (typeof value === 'boolean') return value ? 1 : 0;
  return typeof value === 'number' && Number.isFinite(value) ? value : undefined;
}

/** A check's pass mark as people read it: `>= 0.8`, `<= 20 queries`; empty when it has none. */
export function thresholdText(check: CheckMeta): string {
  return check.threshold === undefined
    ? ''
    : `${check.comparator ?? '>='} ${formatValue(check.threshold, check.unit)}`;
}
