import { terminalSafe } from '../io/terminal.js';
import type { JudgeContext, JudgeErrorInfo } from './types.js';

/** `criterion "alternatives" (rubric icd-203, workup grounded, sample 2)`: a request named for a person. */
export function describeContext(context: JudgeContext | undefined): string {
  if (!context) return 'this request';
  const where = [
    context.rubric !== undefined && `rubric ${context.rubric}`,
    context.workup !== undefined && `workup ${context.workup}`,
    context.sample !== undefined && `sample ${context.sample + 1}`,
  ].filter((part): part is string => typeof part === 'string');
  const head = context.criterion !== undefined ? `criterion "${context.criterion}"` : 'this request';
  return where.length > 0 ? `${head} (${where.join(', ')})` : head;
}

/**
 * A judge failure as a failing test shows it: the message, then what was expected and each raw answer (clipped),
 * so a reader sees what the judge said without opening a log. The server's text is printed on terminals, so its
 * control characters are escaped, whichever judge produced it.
 */
export function formatJudgeError(error: JudgeErrorInfo, maxAnswer = 500): string {
  const lines = [error.message];
  if (error.expected !== undefined) lines.push(`  expected: ${error.expected}`);
  (error.answers ?? []).forEach((answer, i) => {
    const text = answer.length > maxAnswer ? `${answer.slice(0, maxAnswer)}…` : answer;
    lines.push(`  answer ${i + 1}: ${JSON.stringify(text)}`);
  });
  return terminalSafe(lines.join('\n'));
}
