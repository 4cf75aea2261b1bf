// Checks on a run's final answer, for any agent (task cases' `answer` assertions).

import { answerScores } from '../metrics/hotpot.js';
import type { AnswerAssertion } from '../model/spec.js';
import type { Workup } from '../model/workup.js';
import { formatValue } from './format.js';
import { type CaseRule, missingInput, type RunProduct } from './measure.js';

/**
 * The run's final answer: the trajectory's `final_answer`, else the content of its last `answer` step; null when it
 * recorded none.
 */
export function answerOf(workup: Workup): string | null {
  const trajectory = workup.trajectory;
  if (!trajectory) return null;
  if (trajectory.final_answer !== null) return trajectory.final_answer;
  for (let i = trajectory.steps.length - 1; i >= 0; i--) {
    const step = trajectory.steps[i]!;
    if (step.step_type === 'answer') return step.content;
  }
  return null;
}

/** The run's final answer, which every answer check reads: a run that gave none fails them all. */
export const FINAL_ANSWER: RunProduct = (w) =>
  answerOf(w) !== null
    ? undefined
    : w.trajectory
      ? 'the run recorded no final answer'
      : 'the workup has no trajectory: the run recorded no final answer';

const quote = (s: string) => JSON.stringify(s);
const clip = (s: string) => (s.length > 120 ? `${s.slice(0, 117)}...` : s);

/** One answer check: its id, its test name, and whether an answer passes (with what was found). */
interface AnswerRule {
  id: string;
  key: keyof AnswerAssertion;
  name: string;
  value: (answer: string) => number | boolean;
  threshold?: number;
  /** What the answer lacks or holds against the rule, named in the failure (`missing "refund"`). */
  why?: (answer: string) => string;
}

function rules(a: AnswerAssertion): AnswerRule[] {
  const list: AnswerRule[] = [];
  if (a.equals !== undefined) {
    const want = a.equals.trim();
    list.push({
      id: 'answer-equals',
      key: 'equals',
      name: `answer equals ${quote(want)}`,
      value: (x) => x.trim() === want,
    });
  }
  if (a.contains) {
    const parts = a.contains;
    list.push({
      id: 'answer-contains',
      key: 'contains',
      name: `answer contains ${parts.map(quote).join(', ')}`,
      value: (x) => parts.every((p) => x.includes(p)),
      why: (x) =>
        `missing ${parts
          .filter((p) => !x.includes(p))
          .map(quote)
          .join(', ')} (case-sensitive)`,
    });
  }
  if (a.not_contains) {
    const parts = a.not_contains;
    list.push({
      id: 'answer-not-contains',
      key: 'not_contains',
      name: `answer does not contain ${parts.map(quote).join(', ')}`,
      value: (x) => parts.every((p) => !x.includes(p)),
      why: (x) =>
        `holds ${parts
          .filter((p) => x.includes(p))
          .map(quote)
          .join(', ')}`,
    });
  }
  if (a.regex) {
    const re = new RegExp(a.regex.source, a.regex.flags);
    list.push({ id: 'answer-regex', key: 'regex', name: `answer matches ${re}`, value: (x) => re.test(x) });
  }
  if (a.one_of) {
    const options = a.one_of.map((o) => o.trim());
    list.push({
      id: 'answer-one-of',
      key: 'one_of',
      name: `answer is one of ${options.map(quote).join(', ')}`,
      value: (x) => options.includes(x.trim()),
    });
  }
  if (a.exact_match !== undefined) {
    const gold = a.exact_match;
    list.push({
      id: 'answer-exact-match',
      key: 'exact_match',
      name: `answer exact match ${quote(gold)}`,
      value: (x) => answerScores(x, gold).em === 1,
    });
  }
  if (a.f1) {
    const { value: gold, min } = a.f1;
    list.push({
      id: 'answer-f1',
      key: 'f1',
      name: `answer F1 against ${quote(gold)}`,
      value: (x) => answerScores(x, gold).f1,
      threshold: min,
    });
  }
  return list;
}

/**
 * The answer checks of a case, each a test name and the function that decides it. Exact match and F1 follow the
 * HotpotQA evaluation script (`normalize_answer`, `f1_score`); the other comparisons are on the text as written
 * (`equals` and `one_of` ignore surrounding white space). A run that recorded no answer fails every one of them,
 * saying so (`not_contains` too: a run that said nothing has not kept a rule about what it says).
 */
export function answerChecks(a: AnswerAssertion): CaseRule[] {
  return rules(a).map((rule) => ({
    id: rule.id,
    key: rule.key,
    name: rule.name,
    check: (workup) => {
      const answer = answerOf(workup);
      const base = {
        criterion: rule.id,
        metric: rule.id.replace(/-/g, '_'),
        ...(rule.threshold !== undefined && { threshold: rule.threshold, comparator: '>=' as const }),
      };
      if (answer === null) return missingInput(base, FINAL_ANSWER(workup)!);
      const value = rule.value(answer);
      const pass = typeof value === 'boolean' ? value : value >= rule.threshold!;
      return {
        ...base,
        value,
        verdict: pass ? 'pass' : 'fail',
        summary: `${rule.name}: ${pass ? 'yes' : `no${rule.why ? `, ${rule.why(answer)}` : ''}`}${typeof value === 'number' ? ` (${formatValue(value)})` : ''}; the answer is ${quote(clip(answer))}`,
        evidence: { answer },
      };
    },
  }));
}
