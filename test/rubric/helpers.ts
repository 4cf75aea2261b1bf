import type { Judge, JudgeRequest, JudgeResponse } from '../../src/judge/types.js';
import type { RubricCriterion, RubricSpec } from '../../src/model/spec.js';
import type { Workup } from '../../src/model/workup.js';
import { parseNote } from '../../src/note/parse.js';

export function criterion(id: string, extra: Partial<RubricCriterion> = {}): RubricCriterion {
  return {
    id,
    title: `The ${id} criterion`,
    question: `Is the note good at ${id}?`,
    anchors: { 1: `${id} one`, 2: `${id} two`, 3: `${id} three`, 4: `${id} four`, 5: `${id} five` },
    weight: 1,
    ...extra,
  };
}

export function rubric(criteria: RubricCriterion[], extra: Partial<RubricSpec> = {}): RubricSpec {
  return { kind: 'rubric', id: 'test-rubric', criteria, ...extra };
}

export function workup(note = '# Note\n\n- Halberd is a member of Ash Cell. [cite:g1]\n'): Workup {
  return {
    id: 'w1',
    note: parseNote(note),
    ledger: [
      {
        id: 'g1',
        store: 'graph',
        query: 'neighbors("Halberd")',
        results: [{ subject: 'Halberd', relation: 'MEMBER_OF', object: 'Ash Cell', store: 'graph' }],
      },
    ],
    meta: { task: 'How are Halberd and Wren linked?' },
  };
}

/**
 * An in-memory judge that answers from a script keyed by criterion and sample: a number is a verdict with that
 * score, a string is a failure with that message. It records every request it gets.
 */
export function scriptedJudge(
  script: Record<string, Array<number | string>>,
  model = 'scripted',
): Judge & {
  requests: JudgeRequest[];
} {
  const requests: JudgeRequest[] = [];
  return {
    model,
    requests,
    async judge(request: JudgeRequest): Promise<JudgeResponse> {
      requests.push(request);
      const answer = script[request.context!.criterion!]![request.sample!];
      if (typeof answer === 'number') {
        return {
          ok: true,
          score: answer as 1,
          rationale: `${request.context!.criterion} sample ${request.sample} says ${answer}`,
          raw: '{}',
          model,
          usage: { tokens: { input: 10, output: 2 }, costUsd: 0.001, cached: false, calls: 1 },
        };
      }
      return {
        ok: false,
        error: { kind: 'malformed', message: String(answer), answers: ['prose'], expected: 'json' },
        model,
        usage: { tokens: { input: 10, output: 2 }, costUsd: 0.001, cached: false, calls: 2 },
      };
    },
  };
}
