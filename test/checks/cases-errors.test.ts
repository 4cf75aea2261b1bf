import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatDiagnostic } from '../../src/errors/index.js';
import { needlework, outcomes } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { cases } from './helpers.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

/** A file with a fault in four of its six cases, each a different kind of mistake. */
const MALFORMED = `id: faults
cases:
  - id: ok-one
    expect:
      tools: { must_call: [search] }
  - id: typo
    expect:
      tools: { must_cal: [search] }
  - id: wrong-type
    expect:
      steps: { max_steps: many }
  - id: bad-regex
    expect:
      answer: { regex: "/(unclosed/" }
  - id: ok-one
    expect:
      answer: { contains: x }
  - id: ok-two
    expect:
      answer: { equals: done }
`;

describe('task cases that are malformed', () => {
  it('reports each fault at file:line:col with what was expected, and keeps the valid cases', () => {
    const spec = cases(MALFORMED);
    expect(spec.cases.map((c) => c.id)).toEqual(['ok-one', 'ok-two']);
    expect(spec.invalid.map((c) => [c.id, c.diagnostics.map(formatDiagnostic)])).toEqual([
      [
        'typo',
        [
          'x.cases.yaml:8:16: unknown key "must_cal" in cases[1].expect.tools (did you mean "must_call"?); expected one of: must_call, must_not_call, max_calls, order',
        ],
      ],
      ['wrong-type', ['x.cases.yaml:11:27: cases[2].expect.steps.max_steps must be an integer']],
      [
        'bad-regex',
        [
          'x.cases.yaml:14:24: cases[3].expect.answer.regex is not a valid regular expression: /(unclosed/: Unterminated group',
        ],
      ],
      ['ok-one', ['x.cases.yaml:15:9: duplicate case id "ok-one" (also at line 3)']],
    ]);
  });

  it('a problem of the file as a whole is one error for the file', () => {
    expect(() => cases('id: faults\ncases: []\n')).toThrow(
      'x.cases.yaml:2:8: cases must have at least 1 item',
    );
  });

  it('in a run: each bad case is one failing test, a case without a run another, and the valid cases still run', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await writeFile(
      join(dir, 'needles/faults.cases.yaml'),
      MALFORMED.replace('- id: ok-two', '- id: no-run'),
    );
    await cp(join(ROOT, 'examples/coding/runs/fix-pagination-good'), join(dir, 'workups/ok-one'), {
      recursive: true,
    });
    const result = await needlework(dir, 'run', 'workups', '--reporter', 'json', '--reporter', 'default');
    expect(result.code).toBe(1);
    expect(await outcomes(join(dir, 'needlework-report/results.json'))).toEqual([
      'faults > bad-regex > is a valid case: failed',
      'faults > no-run > has a run: failed',
      'faults > ok-one > is a valid case: failed',
      'faults > ok-one › ok-one > calls search: failed',
      'faults > typo > is a valid case: failed',
      'faults > wrong-type > is a valid case: failed',
    ]);
    expect(result.stdout + result.stderr).toContain(
      'case no-run matches no workup (looked for no-run and meta.json task "no-run")',
    );
    // A tool the case names that its run never calls is a warning: a misspelt name would pass must_not_call forever.
    expect(result.stdout + result.stderr).toContain(
      'warning: case ok-one names tool "search", which no run of it ever calls (run_tests, open_file, edit_file)',
    );
  });
});
