import { formatValue } from '../checks/format.js';
import { type CaseDrop, type CaseRef, type CriterionComparison, caseLabel } from '../history/significance.js';
import { significant } from '../metrics/stats/stratified.js';

const percent = (rate: number | null): string => (rate === null ? 'n/a' : `${Math.round(rate * 100)}%`);
const pValue = (p: number): string => (p < 0.001 ? '< 0.001' : `= ${p.toFixed(3)}`);
const TEST_NAMES = {
  exact: 'exact conditional test, stratified by case',
  cmh: 'Cochran-Mantel-Haenszel test, stratified by case',
} as const;
const CASE_TEST_NAMES = { exact: "Fisher's exact test", cmh: 'Mantel-Haenszel z-test' } as const;
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * One line per spec x criterion, saying what the gate concluded and on what evidence, over the cases both runs hold:
 * `compound-alpha grounded: regressed: pass rate 24/30 (80%) -> 15/30 (50%) over 3 cases, p = 0.012
 * (Cochran-Mantel-Haenszel test, stratified by case)`, and the cases of the criterion only one run holds.
 */
export function formatComparison(c: CriterionComparison): string {
  const parts: string[] = [];
  const { before: a, after: b } = c;
  if (c.passRate) {
    const p = c.status === 'improved' ? c.passRate.pRise : c.passRate.pDrop;
    parts.push(
      `pass rate ${a.passes}/${a.trials} (${percent(a.rate)}) -> ${b.passes}/${b.trials} (${percent(b.rate)}) over ${plural(c.cases, 'case')}, p ${pValue(p)} (${TEST_NAMES[c.passRate.test]})`,
    );
  }
  if (c.difference && a.mean !== undefined && b.mean !== undefined) {
    const d = c.difference;
    parts.push(
      `${c.metric} mean ${formatValue(a.mean, c.unit)} -> ${formatValue(b.mean, c.unit)}, mean change per case ${Math.round(d.confidence * 100)}% interval [${formatValue(d.low, c.unit)}, ${formatValue(d.high, c.unit)}]`,
    );
  }
  const evidence = parts.join('; ');
  const what = `${c.spec} ${c.criterion}`;
  const smallest =
    c.detectableDrop === null
      ? c.passRate
        ? '; no drop in pass rate is detectable with this many trials'
        : ''
      : `; the smallest drop detectable is ${Math.round(c.detectableDrop * 100)} points`;
  const apart = formatCaseChanges(c.added, c.removed, 0);
  const tail = apart ? `; ${apart}` : '';
  switch (c.status) {
    case 'regressed':
      return `${what}: regressed: ${evidence}${tail}`;
    case 'improved':
      return `${what}: improved: ${evidence}${tail}`;
    case 'flaky':
      return `${what}: flaky (passes in some trials and fails in others on ${c.flakyTasks.length === 1 ? 'case' : 'cases'} ${c.flakyTasks.join(', ')}); no significant change: ${evidence}${smallest}${tail}`;
    default:
      return `${what}: no change detectable at this sample size: ${evidence}${smallest}${tail}`;
  }
}

/**
 * The cases of a comparison to name one by one: every case that dropped when the criterion regressed, and otherwise
 * those whose own drop is significant at the comparison's level (so no case that fell hard is hidden by others).
 * Most significant first.
 */
export function casesToName(c: CriterionComparison): CaseDrop[] {
  return c.status === 'regressed'
    ? c.droppedCases
    : c.droppedCases.filter((d) => significant(d.pDrop, c.level));
}

/** One dropped case: `refund-policy: 10/10 (100%) -> 0/10 (0%), p < 0.001 (Fisher's exact test)`. */
export function formatCaseDrop(d: CaseDrop): string {
  const { before: a, after: b } = d;
  const rate = (x: { trials: number; passes: number }) => percent(x.trials ? x.passes / x.trials : null);
  return `${caseLabel(d)}: ${a.passes}/${a.trials} (${rate(a)}) -> ${b.passes}/${b.trials} (${rate(b)}), p ${pValue(d.pDrop)} (${CASE_TEST_NAMES[d.test]})`;
}

/**
 * The cases only one run holds, in words, or `undefined` when there are none:
 * `3 cases added, 1 removed (not compared): added a, b, c; removed d`. At most `max` of each are named; with `max` 0,
 * only the counts: `3 cases added, 1 removed (not compared)`.
 */
export function formatCaseChanges(
  added: readonly CaseRef[],
  removed: readonly CaseRef[],
  max = 10,
): string | undefined {
  if (added.length === 0 && removed.length === 0) return undefined;
  const names = (refs: readonly CaseRef[]) => {
    const shown = refs.slice(0, max).map((r) => `${r.spec}/${caseLabel(r)}`);
    return refs.length > max ? `${shown.join(', ')} and ${refs.length - max} more` : shown.join(', ');
  };
  const counts =
    added.length && removed.length
      ? `${plural(added.length, 'case')} added, ${removed.length} removed`
      : added.length
        ? `${plural(added.length, 'case')} added`
        : `${plural(removed.length, 'case')} removed`;
  if (max === 0) return `${counts} (not compared)`;
  const lists = [
    added.length ? `added ${names(added)}` : '',
    removed.length ? `removed ${names(removed)}` : '',
  ]
    .filter(Boolean)
    .join('; ');
  return `${counts} (not compared): ${lists}`;
}
