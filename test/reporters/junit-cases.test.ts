import { describe, expect, it, vi } from 'vitest';
import type { CheckRecord } from '../../src/report/checks.js';
import { buildJUnitXml, JUnitCases } from '../../src/report/junit/build.js';
import { checkMeta } from './harness.js';
import { trialRecord } from './trial-records.js';

// A run's checks of every kind the file writes differently: a YAML-spec suite of two criteria (one failing, one
// skipped) on a trial of a task, arriving in the other order and naming their workup's path apart (the suite takes
// its first criterion's), a hand-written matcher test (its check as case properties), a plain failing test, and two
// plain tests of one name in one file (the second is `[2]` in the file, not the name it was written under).
const generated = (criterion: string, pass: boolean, extra: Partial<CheckRecord>): CheckRecord => {
  const record = trialRecord('book', 1, criterion, pass);
  return { ...record, meta: { ...record.meta!, workupPath: `runs/${criterion}` }, ...extra };
};
const plain = (name: string, extra: Partial<CheckRecord> = {}): CheckRecord => ({
  name,
  suitePath: ['loader'],
  fullName: `loader > ${name}`,
  file: 'loader.test.ts',
  line: 3,
  state: 'passed',
  durationMs: 2.6,
  errors: [],
  ...extra,
});
const CHECKS: CheckRecord[] = [
  generated('surfaced', true, { state: 'skipped', skipNote: 'no "answer" & <none>' }),
  generated('grounded', false, {
    errors: [{ name: 'AssertionError', message: 'x', stack: 'AssertionError: x\n    at y' }],
  }),
  plain('books the cheapest flight', {
    file: 'trip.test.ts',
    meta: checkMeta({ spec: 'matcher', specKind: 'matcher', workup: 'trip', criterion: 'traversed' }),
  }),
  plain('reads a ledger', { state: 'failed', errors: [{ name: 'Error', message: 'bad ]]> line' }] }),
  plain('reads a ledger'),
];
const sources = (check: CheckRecord) => ({ file: `src/${check.file}`, line: 7 });

describe('JUnitCases: test cases written as their tests end', () => {
  it.each(['ci', 'junit-10'] as const)(
    'give the file byte for byte as written at the end (%s)',
    async (dialect) => {
      const sourceOf = vi.fn(sources);
      const cases = new JUnitCases(dialect, sourceOf);
      for (const check of CHECKS) cases.add(check);
      const options = { name: 'n', dialect, sourceOf, timestamp: new Date(0) };
      sourceOf.mockClear();
      const ahead = await buildJUnitXml(CHECKS, { ...options, cases });
      // Only the repeat, named apart in the file, is written anew.
      expect(sourceOf.mock.calls.map(([check]) => check)).toEqual([CHECKS[4]]);
      expect(ahead).toContain('name="loader > reads a ledger [2]"');
      expect(ahead).toContain('<property name="needlework.workup_path" value="runs/grounded"/>');
      expect(ahead).toBe(await buildJUnitXml(CHECKS, options));
    },
  );

  it('are not taken by a file of another dialect or source', async () => {
    const cases = new JUnitCases('junit-10', sources);
    for (const check of CHECKS) cases.add(check);
    const options = { name: 'n', dialect: 'ci' as const, sourceOf: sources };
    expect(await buildJUnitXml(CHECKS, { ...options, cases })).toBe(await buildJUnitXml(CHECKS, options));
    const other = {
      name: 'n',
      dialect: 'junit-10' as const,
      sourceOf: (check: CheckRecord) => sources(check),
    };
    expect(await buildJUnitXml(CHECKS, { ...other, cases })).toBe(await buildJUnitXml(CHECKS, other));
  });
});
