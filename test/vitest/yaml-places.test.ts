import { existsSync } from 'node:fs';
import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { parseStacktrace } from '@vitest/utils/source-map';
import { describe, expect, it } from 'vitest';
import { CODE_FRAME_MAX_BYTES, checkFailure, placeFrames } from '../../src/vitest/check-failure.js';
import { BIN, needlework } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';
import { checkMeta } from '../reporters/harness.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();

const CASES = `id: refund-bot
defaults:
  steps: { max_steps: 1 }
cases:
  - id: refund
    expect:
      tools:
        must_call: [issue_refund]
      tool_calls:
        match: superset
        args: superset
        calls: [{ name: issue_refund, args: { order: 7 } }]
`;

describe('a failing YAML case says where it is written, as a failing hand-written test does', () => {
  it('gives its error stack frames at its assertion and at its case', () => {
    const check = checkMeta({
      spec: 'refund-bot',
      specKind: 'cases',
      specFile: '/p/needles/refunds.cases.yaml',
      place: { line: 3, column: 12 },
      case: 'refund',
      casePlace: { line: 5, column: 5 },
      workup: 'w',
      criterion: 'max-steps',
    });
    expect(placeFrames(check)).toEqual([
      '    at max-steps (/p/needles/refunds.cases.yaml:3:12)',
      '    at case refund (/p/needles/refunds.cases.yaml:5:5)',
    ]);
    expect(placeFrames(checkMeta({ spec: 'matcher', workup: 'w', criterion: 'grounded' }))).toEqual([]);
  });

  const failed = checkMeta({
    spec: 'refund-bot',
    specKind: 'cases',
    specFile: '/p/needles/refunds.cases.yaml',
    place: { line: 8, column: 9 },
    case: 'refund',
    casePlace: { line: 5, column: 5 },
    workup: 'w',
    criterion: 'must-call',
    verdict: 'fail',
  });

  it('gives its frames parsed, as Vitest parses its stack, so that Vitest reads no spec file to parse them', () => {
    const error = checkFailure(failed) as Error & { stacks?: unknown; frame?: unknown };
    expect(error.stacks).toEqual(parseStacktrace(error.stack ?? ''));
    expect(error.stacks).toEqual([
      { method: 'must-call', file: '/p/needles/refunds.cases.yaml', line: 8, column: 9 },
      { method: 'case refund', file: '/p/needles/refunds.cases.yaml', line: 5, column: 5 },
    ]);
    expect(error.frame).toBeUndefined();
  });

  it('of a large spec file, prints its places as its own frame, relative to the root, with no code frame', () => {
    const error = checkFailure(failed, '/p') as Error & { stacks?: unknown; frame?: unknown };
    expect(error.frame).toBe(
      ' ❯ must-call needles/refunds.cases.yaml:8:9\n ❯ case refund needles/refunds.cases.yaml:5:5\n',
    );
    // The stack and its frames stay, for JUnit and the other readers of an error.
    expect(error.stacks).toEqual(parseStacktrace(error.stack ?? ''));
    const placeless = checkMeta({ spec: 'matcher', workup: 'w', criterion: 'grounded', verdict: 'fail' });
    expect((checkFailure(placeless, '/p') as Error & { frame?: unknown }).frame).toBeUndefined();
  });

  it.skipIf(!existsSync(BIN))(
    'in the terminal: file:line:column and a code frame of the YAML; a budget from defaults points at its case too',
    async () => {
      const dir = await tmp();
      await mkdir(join(dir, 'needles'));
      await mkdir(join(dir, 'workups'));
      await writeFile(join(dir, 'needles/refunds.cases.yaml'), CASES);
      await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/refund'), { recursive: true });
      await writeFile(join(dir, 'workups/refund/meta.json'), '{}');
      const run = await needlework(dir, 'run', 'workups', '--reporter', 'default');
      expect(run.code).toBe(1);
      const out = run.stdout + run.stderr;
      expect(out).toContain(' ❯ must-call needles/refunds.cases.yaml:8:9\n');
      expect(out).toContain('      8|         must_call: [issue_refund]\n       |         ^\n');
      // A tool_calls failure lists the calls and shows Vitest's diff of the expected calls against the run's, a call
      // a line, as written in the statement.
      expect(out).toContain('superset match fails: missing issue_refund({"order":7}); arguments superset:');
      expect(out).toContain(
        '- Expected\n+ Received\n\n- issue_refund({"order":7})\n+ graph.neighbors({"entity":"Halberd"})\n' +
          '+ graph.neighbors({"entity":"Depot-Seven"})\n',
      );
      // The budget is written under defaults: the frame shows that line, and the next one the case that failed it.
      expect(out).toMatch(
        / ❯ max-steps needles\/refunds\.cases\.yaml:3:12\n[\s\S]*?\n {6}3\| {3}steps: \{ max_steps: 1 \}\n[\s\S]*? ❯ case refund needles\/refunds\.cases\.yaml:5:5\n/,
      );
    },
    60_000,
  );

  it.skipIf(!existsSync(BIN))(
    'in the terminal, for a spec file over the code-frame size: file:line:column of each place, no code frame',
    async () => {
      const dir = await tmp();
      await mkdir(join(dir, 'needles'));
      await mkdir(join(dir, 'workups'));
      // Vitest would read and split the whole file again for each failed test's code frame.
      const padding = `# ${'x'.repeat(98)}\n`.repeat(Math.ceil(CODE_FRAME_MAX_BYTES / 100));
      await writeFile(join(dir, 'needles/refunds.cases.yaml'), CASES + padding);
      await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'workups/refund'), { recursive: true });
      await writeFile(join(dir, 'workups/refund/meta.json'), '{}');
      const run = await needlework(dir, 'run', 'workups', '--reporter', 'default');
      expect(run.code).toBe(1);
      const out = run.stdout + run.stderr;
      expect(out).toContain(
        ' ❯ must-call needles/refunds.cases.yaml:8:9\n ❯ case refund needles/refunds.cases.yaml:5:5\n',
      );
      expect(out).toContain(
        ' ❯ max-steps needles/refunds.cases.yaml:3:12\n ❯ case refund needles/refunds.cases.yaml:5:5\n',
      );
      expect(out).not.toContain('must_call: [issue_refund]\n');
      expect(out).toContain('superset match fails: missing issue_refund({"order":7}); arguments superset:');
    },
    60_000,
  );
});
