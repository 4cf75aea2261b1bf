import { stripVTControlCharacters } from 'node:util';
import { processError } from '@vitest/utils/error';
import { describe, expect, it } from 'vitest';
import type { Check } from '../../src/model/check.js';
import { checkFailure } from '../../src/vitest/check-failure.js';
import { checkMeta } from '../reporters/harness.js';

/** A failed tool_calls check whose evidence holds the expected calls and the run's, as `toolCallsCheck` keeps them. */
function failedCalls(reference: { tool: string; args: Record<string, unknown> }[], actual: string[]): Check {
  return checkMeta({
    spec: 'set',
    specKind: 'cases',
    case: 'c',
    workup: 'w',
    criterion: 'tool-calls',
    verdict: 'fail',
    evidence: { mode: 'strict', args: 'exact', reference, actual },
  });
}

/** What Vitest's test worker makes of the error for the terminal: its diff, colours taken off. */
function vitestDiff(error: Error): string | undefined {
  const processed = processError(error) as { diff?: string };
  return processed.diff === undefined ? undefined : stripVTControlCharacters(processed.diff);
}

describe('a failed check diffs the expected calls against the run calls in the terminal', () => {
  const swapped = failedCalls(
    [
      { tool: 'search', args: { city: 'Paris' } },
      { tool: 'book', args: { id: 'r1' } },
      { tool: 'notify', args: {} },
    ],
    ['search({"city":"Paris"})', 'notify({})', 'book({"id":"r1"})'],
  );

  it('as Vitest diffs two texts: a call a line, without quotes to escape or brackets', () => {
    const error = checkFailure(swapped);
    expect(error).toMatchObject({
      expected: 'search({"city":"Paris"})\nbook({"id":"r1"})\nnotify({})',
      actual: 'search({"city":"Paris"})\nnotify({})\nbook({"id":"r1"})',
      showDiff: true,
    });
    expect(vitestDiff(error)).toBe(
      [
        '- Expected',
        '+ Received',
        '',
        '  search({"city":"Paris"})',
        '+ notify({})',
        '  book({"id":"r1"})',
        '- notify({})',
      ].join('\n'),
    );
  });

  it('marks a changed argument in its line', () => {
    const wrong = failedCalls(
      [
        { tool: 'search', args: { id: 'r1' } },
        { tool: 'book', args: { id: 'r2' } },
      ],
      ['search({"id":"r1"})', 'book({"id":"wrong"})'],
    );
    expect(vitestDiff(checkFailure(wrong))).toBe(
      [
        '- Expected',
        '+ Received',
        '',
        '  search({"id":"r1"})',
        '- book({"id":"r2"})',
        '+ book({"id":"wrong"})',
      ].join('\n'),
    );
  });

  it('shows a run that made no call as every expected call missing', () => {
    const none = failedCalls([{ tool: 'search', args: { id: 'r1' } }], []);
    expect(vitestDiff(checkFailure(none))).toBe('- Expected\n+ Received\n\n- search({"id":"r1"})');
  });

  it("keeps each call on its line and the terminal's controls escaped: a tool's name is the agent's text", () => {
    const error = checkFailure(
      failedCalls([{ tool: 'search', args: {} }], ['sea\nrch\u001b[2J({})', 'book\u202e({})']),
    ) as Error & { actual?: unknown };
    expect(error.actual).toBe('sea\\nrch\\x1b[2J({})\nbook\\u202e({})');
  });

  it('gives no diff to a check without the run calls, such as a failed answer', () => {
    const answer = checkMeta({
      spec: 'set',
      specKind: 'cases',
      case: 'c',
      workup: 'w',
      criterion: 'answer-equals',
      verdict: 'fail',
      evidence: { answer: 'Booked R2.' },
    });
    const error = checkFailure(answer);
    expect(error).not.toHaveProperty('showDiff');
    expect(vitestDiff(error)).toBeUndefined();
  });
});
