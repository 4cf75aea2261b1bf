import type { CheckMeta } from '../../model/check.js';
import { byteCompare } from '../../model/order.js';
import type { TrialIndex } from '../trials.js';

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
 * - `<criterion>.value`: the measured value (`n/a` when nothing was measured: see `.verdict`, `true`/`false` for booleans).
 * - `<criterion>.threshold` and `<criterion>.comparator` (`>=`, `<=`, `==`): the pass mark, when there is one.
 * - `<criterion>.unit`: the unit of value and threshold, when not a [0, 1] score.
 * - `<criterion>.verdict`: `pass`, `fail` or `not-applicable`.
 * - `<criterion>.score.<name>`: each side score measured with the check (numbers, in their own units).
 *
 * Per criterion, when the workup is a trial of a task (`meta.task`), over the task's trials in this run:
 * - `<criterion>.task`; `<criterion>.trials` and `<criterion>.passes` (decided trials and passes, counts).
 * - `<criterion>.pass_rate` with `<criterion>.pass_rate_low` and `<criterion>.pass_rate_high` (its 95% Wilson
 *   interval), ratios in [0, 1]; `n/a` with no decided trial.
 * - `<criterion>.pass_at_<k>` and `<criterion>.pass_hat_<k>`: pass@k and pass^k for k = 1 and the number of trials
 *   (`n/a` where k exceeds them); `<criterion>.flaky`: `true` when the task's trials both passed and failed.
 *
 * A hand-written test (a matcher called in an `it` of the user's own) keeps its own name and file, so its check is
 * written on its `<testcase>` instead (`JUnitCasePropertyName`).
 */
export type JUnitPropertyName =
  | 'needlework.spec'
  | 'needlework.spec_kind'
  | 'needlework.spec_file'
  | 'needlework.workup'
  | 'needlework.workup_path'
  | `${string}.${'metric' | 'value' | 'threshold' | 'comparator' | 'unit' | 'verdict'}`
  | `${string}.score.${string}`
  | `${string}.${'task' | 'trials' | 'passes' | 'pass_rate' | 'pass_rate_low' | 'pass_rate_high' | 'flaky'}`
  | `${string}.pass_${'at' | 'hat'}_${number}`;

/**
 * The suite's properties in a fixed order: the suite-wide ones, then each criterion in byte order (with its task's
 * trial statistics when `trials` knows them).
 */
export function suiteProperties(
  metas: readonly CheckMeta[],
  trials?: TrialIndex,
): Array<[JUnitPropertyName, string]> {
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
    for (const [field, value] of measurement(meta)) props.push([`${meta.criterion}.${field}`, value]);
    const task = trials?.of(meta);
    if (task) props.push(...trialProperties(meta.criterion, task, trials?.ks(meta) ?? []));
  }
  return props;
}

/**
 * The `<property>` names needlework writes inside the `<testcase>` of a hand-written test that called a matcher (the
 * `ci` dialect only: junit-10.xsd allows no properties on a test case). Public API, like `JUnitPropertyName`:
 * - `needlework.criterion`, `needlework.spec`, `needlework.spec_kind`, `needlework.workup`, and
 *   `needlework.spec_file` / `needlework.workup_path` when known: which check the test asserted.
 * - `needlework.metric`, `needlework.value`, `needlework.threshold`, `needlework.comparator`, `needlework.unit`,
 *   `needlework.verdict` and `needlework.score.<name>`: as the suite-level `<criterion>.*` properties.
 */
export type JUnitCasePropertyName =
  | `needlework.${'criterion' | 'spec' | 'spec_kind' | 'spec_file' | 'workup' | 'workup_path'}`
  | `needlework.${'metric' | 'value' | 'threshold' | 'comparator' | 'unit' | 'verdict'}`
  | `needlework.score.${string}`;

/** The properties of one hand-written test's check, in a fixed order. */
export function caseProperties(meta: CheckMeta): Array<[JUnitCasePropertyName, string]> {
  const props: Array<[JUnitCasePropertyName, string]> = [
    ['needlework.criterion', meta.criterion],
    ['needlework.spec', meta.spec],
    ['needlework.spec_kind', meta.specKind],
  ];
  if (meta.specFile) props.push(['needlework.spec_file', meta.specFile]);
  props.push(['needlework.workup', meta.workup]);
  if (meta.workupPath) props.push(['needlework.workup_path', meta.workupPath]);
  for (const [field, value] of measurement(meta)) props.push([`needlework.${field}`, value]);
  return props;
}

type MeasurementField =
  | 'metric'
  | 'value'
  | 'threshold'
  | 'comparator'
  | 'unit'
  | 'verdict'
  | `score.${string}`;

/** What a check measured and decided, field by field, as the property values (suite- and case-level) write it. */
function measurement(meta: CheckMeta): Array<[MeasurementField, string]> {
  const fields: Array<[MeasurementField, string]> = [
    ['metric', meta.metric],
    ['value', meta.value === null ? 'n/a' : String(meta.value)],
  ];
  if (meta.threshold !== undefined) {
    fields.push(['threshold', String(meta.threshold)]);
    fields.push(['comparator', meta.comparator ?? '>=']);
  }
  if (meta.unit) fields.push(['unit', meta.unit]);
  fields.push(['verdict', meta.verdict]);
  for (const name of Object.keys(meta.scores ?? {}).sort(byteCompare))
    fields.push([`score.${name}`, String(meta.scores?.[name])]);
  return fields;
}

function trialProperties(
  c: string,
  task: NonNullable<ReturnType<TrialIndex['of']>>,
  ks: readonly string[],
): Array<[JUnitPropertyName, string]> {
  // To 6 decimals, as the shortest number: a whole number (every pass rate of one trial) is written as it is.
  const ratio = (x: number | null | undefined) =>
    x === null || x === undefined ? 'n/a' : Number.isInteger(x) ? String(x) : String(Number(x.toFixed(6)));
  const props: Array<[JUnitPropertyName, string]> = [
    [`${c}.task`, task.task],
    [`${c}.trials`, String(task.trials)],
    [`${c}.passes`, String(task.passes)],
    [`${c}.pass_rate`, ratio(task.passRate)],
    [`${c}.pass_rate_low`, ratio(task.interval?.low)],
    [`${c}.pass_rate_high`, ratio(task.interval?.high)],
  ];
  for (const k of ks) props.push([`${c}.pass_at_${Number(k)}`, ratio(task.passAtK[k])]);
  for (const k of ks) props.push([`${c}.pass_hat_${Number(k)}`, ratio(task.passHatK[k])]);
  props.push([`${c}.flaky`, String(task.flaky)]);
  return props;
}
