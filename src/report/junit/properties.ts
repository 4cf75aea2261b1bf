import type { CheckMeta } from '../../model/check.js';
import { byteCompare } from '../checks.js';

/**
 * The `<property>` names needlework writes on each `<testsuite>` of a spec x workup. This list is public API: CI
 * dashboards read these names. Values are strings in the XML; the unit of `value` and `threshold` is the check's
 * `unit` (a [0, 1] score when there is none).
 *
 * Suite-wide:
 * - `needlework.spec`: the spec id; `needlework.spec_kind`: `needle`, `rubric` or `matcher`;
 *   `needlework.spec_file`: the spec file, when there is one.
 * - `needlework.workup`: the workup id; `needlework.workup_path`: its folder or file, when known.
 *
 * Per criterion, prefixed with the criterion name (`surfaced.value`):
 * - `<criterion>.metric`: the metric the verdict rests on.
 * - `<criterion>.value`: the measured value (`n/a` when the metric does not apply, `true`/`false` for booleans).
 * - `<criterion>.threshold` and `<criterion>.comparator` (`>=`, `<=`, `==`): the pass mark, when there is one.
 * - `<criterion>.unit`: the unit of value and threshold, when not a [0, 1] score.
 * - `<criterion>.verdict`: `pass`, `fail` or `not-applicable`.
 * - `<criterion>.score.<name>`: each side score measured with the check (numbers, in their own units).
 */
export type JUnitPropertyName =
  | 'needlework.spec'
  | 'needlework.spec_kind'
  | 'needlework.spec_file'
  | 'needlework.workup'
  | 'needlework.workup_path'
  | `${string}.${'metric' | 'value' | 'threshold' | 'comparator' | 'unit' | 'verdict'}`
  | `${string}.score.${string}`;

/** The suite's properties in a fixed order: the suite-wide ones, then each criterion in byte order. */
export function suiteProperties(metas: readonly CheckMeta[]): Array<[JUnitPropertyName, string]> {
  const first = metas[0];
  if (!first) return [];
  const props: Array<[JUnitPropertyName, string]> = [
    ['needlework.spec', first.spec],
    ['needlework.spec_kind', first.specKind],
  ];
  if (first.specFile) props.push(['needlework.spec_file', first.specFile]);
  props.push(['needlework.workup', first.workup]);
  if (first.workupPath) props.push(['needlework.workup_path', first.workupPath]);
  const sorted = [...metas].sort((a, b) => byteCompare(a.criterion, b.criterion));
  for (const meta of sorted) {
    const c = meta.criterion;
    props.push([`${c}.metric`, meta.metric]);
    props.push([`${c}.value`, meta.value === null ? 'n/a' : String(meta.value)]);
    if (meta.threshold !== undefined) {
      props.push([`${c}.threshold`, String(meta.threshold)]);
      props.push([`${c}.comparator`, meta.comparator ?? '>=']);
    }
    if (meta.unit) props.push([`${c}.unit`, meta.unit]);
    props.push([`${c}.verdict`, meta.verdict]);
    for (const name of Object.keys(meta.scores ?? {}).sort(byteCompare))
      props.push([`${c}.score.${name}`, String(meta.scores?.[name])]);
  }
  return props;
}
