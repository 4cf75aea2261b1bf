import type { CheckMeta } from '../model/check.js';
import { byteCompare } from '../model/order.js';
import { checkValue, formatValue } from './format.js';

/**
 * The plain-text scorecard of one check, aligned for a monospace CI log (the JUnit `system-out`): where the check
 * came from, what was measured against what was required, the verdict, and every side score. Written line by line
 * into one string (a run of 30,000 checks writes 30,000 of them).
 */
export function checkScorecard(meta: CheckMeta): string {
  const scores = meta.scores ? Object.keys(meta.scores).sort(byteCompare) : [];
  // The labels' column: as wide as the longest label, `criterion` unless a score's name is longer.
  let width = LABEL_WIDTH;
  for (const name of scores) width = Math.max(width, SCORE_LABEL.length + name.length);
  const label = width === LABEL_WIDTH ? labelAtWidth : (name: string) => padded(name, width);
  let card = `${label('spec')}${meta.spec} (${meta.specKind}${meta.specFile ? `, ${meta.specFile}` : ''})
${label('workup')}${meta.workupPath ? `${meta.workup} (${meta.workupPath})` : meta.workup}
${label('criterion')}${meta.criterion}
${label('metric')}${meta.metric}
${label('value')}${checkValue(meta)}`;
  if (meta.threshold !== undefined)
    card += `\n${label('threshold')}${meta.comparator ?? '>='} ${formatValue(meta.threshold, meta.unit)}`;
  card += `\n${label('verdict')}${meta.verdict}`;
  if (meta.summary) card += `\n${label('summary')}${meta.summary}`;
  for (const name of scores) card += `\n${label(`${SCORE_LABEL}${name}`)}${formatValue(meta.scores?.[name])}`;
  return card;
}

/** The longest of the fixed labels (`criterion`, `threshold`). */
const LABEL_WIDTH = 9;
const SCORE_LABEL = 'score ';

/** `label:` padded to the column of values, `width` the longest label's length (a space after the longest's colon). */
function padded(label: string, width: number): string {
  return `${label}:${' '.repeat(width + 1 - label.length)}`;
}

/** The fixed labels as most scorecards write them (no score's name is longer than `criterion`). */
const AT_WIDTH = new Map(
  ['spec', 'workup', 'criterion', 'metric', 'value', 'threshold', 'verdict', 'summary'].map((label) => [
    label,
    padded(label, LABEL_WIDTH),
  ]),
);

function labelAtWidth(label: string): string {
  return AT_WIDTH.get(label) ?? padded(label, LABEL_WIDTH);
}
