import { plural } from '../io/plural.js';
import { formatJudgeError } from '../judge/describe.js';
import type { CriterionScore, RubricScore, UsageTotals } from './types.js';

/** The verdicts the lines show, decided by the checks (`rubricVerdict` and `criterionVerdict`, src/checks/rubric.ts). */
export interface RubricVerdicts {
  total: 'pass' | 'fail' | 'error';
  criterion(criterion: CriterionScore): 'pass' | 'fail' | 'error';
}

/** The colours the lines use; picocolors' `createColors()` fits, and the default leaves the text plain. */
export interface Palette {
  bold(text: string): string;
  dim(text: string): string;
  green(text: string): string;
  red(text: string): string;
  yellow(text: string): string;
}

const PLAIN: Palette = {
  bold: String,
  dim: String,
  green: String,
  red: String,
  yellow: String,
};

/**
 * A rubric score as terminal lines: a heading, one line per criterion (median, threshold, agreement, spread and the
 * sample scores) with the rationale under it, each failed sample, the judge failure of an unscored criterion with its
 * raw answers, the total, and the usage line. Shared by `needlework judge` and `needlework score --rubric`.
 */
export function formatRubricScore(
  result: RubricScore,
  verdicts: RubricVerdicts,
  c: Palette = PLAIN,
): string[] {
  const model = result.model !== undefined ? `model ${result.model}, ` : '';
  const lines = [
    c.bold(`${result.rubric} on ${result.workup}`) +
      c.dim(` (${model}${result.samples} samples per criterion)`),
  ];
  const width = Math.max(0, ...result.criteria.map((r) => r.criterion.length));
  for (const criterion of result.criteria)
    lines.push(...criterionLines(criterion, verdicts.criterion(criterion), width, c));
  const total = result.total === null ? 'no total' : `total ${format(result.total)}`;
  const verdict =
    verdicts.total === 'pass'
      ? c.green('pass')
      : verdicts.total === 'fail'
        ? c.red('fail')
        : c.red('incomplete');
  lines.push(`  ${total} against threshold ${format(result.threshold)}: ${verdict}`);
  lines.push(c.dim(`  ${usageLine(result.usage)}`));
  lines.push('');
  return lines;
}

function criterionLines(
  criterion: CriterionScore,
  verdict: 'pass' | 'fail' | 'error',
  width: number,
  c: Palette,
): string[] {
  const name = criterion.criterion.padEnd(width);
  if (criterion.score === null || criterion.agreement === null) {
    const lines = [`  ${c.red('!')} ${name}  ${c.red('no score')}`];
    if (criterion.error) lines.push(indent(formatJudgeError(criterion.error), 6));
    return lines;
  }
  const mark = verdict === 'pass' ? c.green('✓') : c.red('✗');
  const { agreement } = criterion;
  const valid =
    criterion.samplesValid < criterion.samplesRequested
      ? `, ${criterion.samplesValid} of ${criterion.samplesRequested} samples answered`
      : '';
  const detail = `agreement ${Math.round(agreement.agreement * 100)}%, spread ${format(agreement.spread)} [${agreement.scores.join(' ')}]${valid}`;
  const lines = [
    `  ${mark} ${name}  ${format(criterion.score)} / 5 ${c.dim(`(threshold ${format(criterion.threshold)}; ${detail})`)}`,
  ];
  if (criterion.rationale) lines.push(c.dim(indent(criterion.rationale, 6)));
  for (const sample of criterion.samples) {
    if (!sample.ok) lines.push(c.yellow(indent(`sample ${sample.sample + 1}: ${sample.error.message}`, 6)));
  }
  return lines;
}

/** `12 judgements (4 cached), 12 calls, 10200 input + 600 output tokens, $0.0042`. */
export function usageLine(usage: UsageTotals): string {
  const parts = [`${usage.requests} judgements${usage.cached > 0 ? ` (${usage.cached} cached)` : ''}`];
  parts.push(plural(usage.calls, 'call'));
  parts.push(
    usage.tokens ? `${usage.tokens.input} input + ${usage.tokens.output} output tokens` : 'tokens unknown',
  );
  parts.push(usage.costUsd !== undefined ? `$${usage.costUsd.toFixed(4)}` : 'cost unknown');
  return parts.join(', ');
}

function format(n: number): string {
  return Number.isInteger(n) ? String(n) : n.toFixed(2);
}

function indent(text: string, spaces: number): string {
  const pad = ' '.repeat(spaces);
  return text
    .split('\n')
    .map((line) => pad + line)
    .join('\n');
}
