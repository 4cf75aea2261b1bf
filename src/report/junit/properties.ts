import type { CheckMeta } from '../../model/check.js';
import { byteCompare } from '../../model/order.js';
import type { TaskStatistics } from '../../trials/summary.js';

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

/** Where the properties go, one at a time, in writing order (the JUnit writer writes each as it comes). */
export type PropertySink<Name extends string> = (name: Name, value: string) => void;

/**
 * The suite-wide properties, `needlework.*`, of the suite whose first check (in criterion order) `first` is. A suite's
 * properties are these, then each criterion in byte order: its `criterionProperties`, then, when its workup is a trial of
 * a task, its task's (`taskPropertyNames`).
 */
export function suiteWideProperties(first: CheckMeta, add: PropertySink<JUnitPropertyName>): void {
  add('needlework.spec', first.spec);
  add('needlework.spec_kind', first.specKind);
  if (first.specFile) add('needlework.spec_file', first.specFile);
  add('needlework.workup', first.workup);
  if (first.workupPath) add('needlework.workup_path', first.workupPath);
}

/** Whether two checks' suite-wide properties are the same (`suiteWideProperties` writes these fields alone). */
export function sameSuiteWide(a: CheckMeta, b: CheckMeta): boolean {
  return (
    a.workup === b.workup &&
    a.spec === b.spec &&
    a.specKind === b.specKind &&
    a.specFile === b.specFile &&
    a.workupPath === b.workupPath
  );
}

/** What one criterion measured and decided, `<criterion>.*` (its check's alone: written as its test ends). */
export function criterionProperties(meta: CheckMeta, add: PropertySink<JUnitPropertyName>): void {
  measurement<`${string}.`>(meta, `${meta.criterion}.`, add);
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
export function caseProperties(meta: CheckMeta, add: PropertySink<JUnitCasePropertyName>): void {
  add('needlework.criterion', meta.criterion);
  add('needlework.spec', meta.spec);
  add('needlework.spec_kind', meta.specKind);
  if (meta.specFile) add('needlework.spec_file', meta.specFile);
  add('needlework.workup', meta.workup);
  if (meta.workupPath) add('needlework.workup_path', meta.workupPath);
  measurement(meta, 'needlework.', add);
}

type MeasurementField =
  | 'metric'
  | 'value'
  | 'threshold'
  | 'comparator'
  | 'unit'
  | 'verdict'
  | `score.${string}`;

/**
 * What a check measured and decided, field by field, as the property values (suite- and case-level) write it, each
 * name after `prefix`.
 */
function measurement<Prefix extends string>(
  meta: CheckMeta,
  prefix: Prefix,
  add: PropertySink<`${Prefix}${MeasurementField}`>,
): void {
  const names = measurementNames(prefix);
  add(names.metric, meta.metric);
  add(names.value, meta.value === null ? 'n/a' : String(meta.value));
  if (meta.threshold !== undefined) {
    add(names.threshold, String(meta.threshold));
    add(names.comparator, meta.comparator ?? '>=');
  }
  if (meta.unit) add(names.unit, meta.unit);
  add(names.verdict, meta.verdict);
  const scores = meta.scores;
  if (scores)
    for (const name of Object.keys(scores).sort(byteCompare))
      add(`${prefix}score.${name}`, String(scores[name]));
}

type FixedField = Exclude<MeasurementField, `score.${string}`>;

// Each prefix's names, made once: a run writes these six for every check of a criterion, and a name made anew each
// time is a string to put together and read again each time. As many as there are criteria (kept to a bound).
const namesByPrefix = new Map<string, Record<FixedField, string>>();

function measurementNames<Prefix extends string>(
  prefix: Prefix,
): Record<FixedField, `${Prefix}${FixedField}`> {
  let names = namesByPrefix.get(prefix);
  if (!names) {
    if (namesByPrefix.size >= 10_000) namesByPrefix.clear();
    names = {
      metric: `${prefix}metric`,
      value: `${prefix}value`,
      threshold: `${prefix}threshold`,
      comparator: `${prefix}comparator`,
      unit: `${prefix}unit`,
      verdict: `${prefix}verdict`,
    };
    namesByPrefix.set(prefix, names);
  }
  return names as Record<FixedField, `${Prefix}${FixedField}`>;
}

/**
 * The names of one criterion's task properties (its workup a trial of a task) with pass@k and pass^k for the k values
 * `ks`, in writing order: the same for every task of the criterion, so a file names them once (`taskPropertyValues`
 * are each task's).
 */
export function taskPropertyNames(c: string, ks: readonly string[]): JUnitPropertyName[] {
  const names: JUnitPropertyName[] = [
    `${c}.task`,
    `${c}.trials`,
    `${c}.passes`,
    `${c}.pass_rate`,
    `${c}.pass_rate_low`,
    `${c}.pass_rate_high`,
  ];
  for (const k of ks) names.push(`${c}.pass_at_${Number(k)}`);
  for (const k of ks) names.push(`${c}.pass_hat_${Number(k)}`);
  names.push(`${c}.flaky`);
  return names;
}

/** A task's statistics as the values of `taskPropertyNames(criterion, ks)`, in the same order. */
export function taskPropertyValues(task: TaskStatistics, ks: readonly string[]): string[] {
  const values = [
    task.task,
    String(task.trials),
    String(task.passes),
    ratio(task.passRate),
    ratio(task.interval?.low),
    ratio(task.interval?.high),
  ];
  for (const k of ks) values.push(ratio(task.passAtK[k]));
  for (const k of ks) values.push(ratio(task.passHatK[k]));
  values.push(String(task.flaky));
  return values;
}

/** A ratio to 6 decimals, as the shortest number: a whole number (every pass rate of one trial) is written as it is. */
function ratio(x: number | null | undefined): string {
  return x === null || x === undefined
    ? 'n/a'
    : Number.isInteger(x)
      ? String(x)
      : String(Number(x.toFixed(6)));
}
