import type { CheckMeta } from '../model/check.js';
import { checkValue, formatValue } from './format.js';

/**
 * The plain-text scorecard of one check, aligned for a monospace CI log (the JUnit `system-out`): where the check
 * came from, what was measured against what was required, the verdict, and every side score.
 */
export function checkScorecard(meta: CheckMeta): string {
  const rows: Array<[string, string]> = [
    ['spec', `${meta.spec} (${meta.specKind}${meta.specFile ? `, ${meta.specFile}` : ''})`],
    ['workup', meta.workupPath ? `${meta.workup} (${meta.workupPath})` : meta.workup],
    ['criterion', meta.criterion],
    ['metric', meta.metric],
    ['value', checkValue(meta)],
  ];
  if (meta.threshold !== undefined)
    rows.push(['threshold', `${meta.comparator ?? '>='} ${formatValue(meta.threshold, meta.unit)}`]);
  rows.push(['verdict', meta.verdict]);
  if (meta.summary) rows.push(['summary', meta.summary]);
  for (const [name, score] of Object.entries(meta.scores ?? {}).sort(([a], [b]) =>
    a < b ? -1 : a > b ? 1 : 0,
  ))
    rows.push([`score ${name}`, formatValue(score)]);
  const width = rows.reduce((w, [label]) => Math.max(w, label.length), 0);
  return rows.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${value}`).join('\n');
}
