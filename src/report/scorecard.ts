import type { CheckMeta } from '../model/check.js';
import { byteCompare } from '../model/order.js';
import { checkValue, formatValue } from './format.js';

/**
 * The plain-text scorecard of one check, aligned for a monospace CI log (the JUnit `system-out`): where the check
 * came from, what was measured against what was required, the verdict, and every side score. Written line by line
 * into one string (a run of 30,000 checks writes 30,000 of them after its last test).
 */
export function checkScorecard(meta: CheckMeta): string {
  const scores = meta.scores ? Object.keys(meta.scores).sort(byteCompare) : [];
  // The labels' column: as wide as the longest label, `criterion` unless a score's name is longer.
  let width = LABEL_WIDTH;
  for (const name of scores) width = Math.max(width, SCORE_LABEL.length + name.length);
  const row = (label: string, value: string) => `${label}:${' '.repeat(width + 1 - label.length)}${value}`;
  let card = `${row('spec', `${meta.spec} (${meta.specKind}${meta.specFile ? `, ${meta.specFile}` : ''})`)}
${row('workup', meta.workupPath ? `${meta.workup} (${meta.workupPath})` : meta.workup)}
${row('criterion', meta.criterion)}
${row('metric', meta.metric)}
${row('value', checkValue(meta))}`;
  if (meta.threshold !== undefined)
    card += `\n${row('threshold', `${meta.comparator ?? '>='} ${formatValue(meta.threshold, meta.unit)}`)}`;
  card += `\n${row('verdict', meta.verdict)}`;
  if (meta.summary) card += `\n${row('summary', meta.summary)}`;
  for (const name of scores) card += `\n${row(`${SCORE_LABEL}${name}`, formatValue(meta.scores?.[name]))}`;
  return card;
}

/** The longest of the fixed labels (`criterion`, `threshold`). */
const LABEL_WIDTH = 9;
const SCORE_LABEL = 'score ';
