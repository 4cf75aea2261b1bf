import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { NeedleworkSummaryReporter } from '../../reporters/summary.js';
import type { NeedleSpec } from '../../src/model/spec.js';
import { formatAnnotation } from '../../src/report/summary/annotations.js';
import { parseSpec } from '../../src/specs/load.js';
import { checkMeta, makeProject, removeProject, runVitest, testFileSource } from './harness.js';
import { addToHistoryFile, trendCheck, trendRun } from './trend-data.js';

const SPEC = `id: compound-alpha
answer: Compound-Alpha
required_path:
  relations: [MEMBER_OF, CO_LOCATED]
thresholds:
  citation_recall: 1
`;
const NOTE = `# Workup

## Findings

- Halberd is a member of Ash Cell. [cite:g1]
- Wren visited the site, twice: 100% sure.
`;

// Where each criterion is written, as the spec's loader finds it: the checks carry it from there.
const PLACES = (parseSpec(SPEC, 'needles/compound-alpha.needle.yaml') as NeedleSpec).places!;

const guessed = (criterion: string, overrides = {}) =>
  checkMeta({
    spec: 'compound-alpha',
    specFile: 'needles/compound-alpha.needle.yaml',
    place: PLACES[criterion.replaceAll(' ', '-')],
    workup: 'guessed',
    workupPath: 'runs/guessed',
    criterion,
    ...overrides,
  });

let root: string;
let printed: string;
let summary: string;

beforeAll(async () => {
  root = await makeProject({
    'needles/compound-alpha.needle.yaml': SPEC,
    'runs/guessed/note.md': NOTE,
    'needles.check.mjs': testFileSource([
      {
        describe: ['compound-alpha', 'guessed'],
        name: 'traversed',
        meta: guessed('traversed', {
          metric: 'trajectory',
          value: 0.5,
          verdict: 'fail',
          summary: '1 of 2 hops',
        }),
        outcome: 'fail',
      },
      {
        describe: ['compound-alpha', 'guessed'],
        name: 'citation recall',
        meta: guessed('citation recall', {
          metric: 'citation_recall',
          value: 0.5,
          threshold: 1,
          verdict: 'fail',
          evidence: {
            uncited: [
              { line: 6, column: 3, section: 'Findings', text: 'Wren visited the site, twice: 100% sure.' },
            ],
            unsupported: [
              {
                line: 5,
                column: 3,
                text: 'Halberd is a member of Ash Cell.',
                citations: ['g1'],
                score: 0.04,
              },
              // Agent text that would retitle and clear a terminal showing the CI log.
              {
                line: 7,
                column: 3,
                text: 'Ash Cell\u001b]0;pwned\u0007\u001b[2J is co-located.',
                citations: ['g4'],
                score: 0.1,
              },
            ],
          },
        }),
        outcome: 'fail',
      },
      {
        describe: ['compound-alpha', 'guessed'],
        name: 'surfaced',
        meta: guessed('surfaced'),
        outcome: 'pass',
      },
    ]),
    'trip.check.mjs': testFileSource([
      {
        describe: ['trip'],
        name: 'books the cheapest flight',
        meta: checkMeta({
          spec: 'matcher',
          specKind: 'matcher',
          workup: 'trip',
          criterion: 'traversed',
          verdict: 'fail',
        }),
        outcome: 'fail',
        error: 'expected the path',
      },
    ]),
  });
  // A baseline run from before this one, in which citation recall was 1.
  await addToHistoryFile(
    join(root, 'needlework-trend.json'),
    trendRun(1, [
      trendCheck({
        workup: 'guessed',
        criterion: 'citation recall',
        metric: 'citation_recall',
        value: 1,
        threshold: 1,
      }),
    ]),
  );
  vi.stubEnv('GITHUB_STEP_SUMMARY', join(root, 'step-summary.md'));
  vi.stubEnv('GITHUB_ACTIONS', 'true');
  vi.stubEnv('GITHUB_SERVER_URL', 'https://github.com');
  vi.stubEnv('GITHUB_REPOSITORY', 'acme/agents');
  vi.stubEnv('GITHUB_SHA', 'abc123');
  const reporter = new NeedleworkSummaryReporter({ trendFile: 'needlework-trend.json' });
  vi.unstubAllEnvs();
  const write = vi.spyOn(process.stdout, 'write');
  await runVitest(root, [reporter]);
  printed = write.mock.calls.map(([chunk]) => String(chunk)).join('');
  write.mockRestore();
  summary = await readFile(join(root, 'step-summary.md'), 'utf8');
}, 60_000);

afterAll(() => removeProject(root));

/** Parses `::error k=v,...::message` lines back, undoing GitHub's escapes. */
function annotations(text: string): Array<Record<string, string>> {
  const unescapeCommand = (s: string) =>
    s
      .replaceAll('%3A', ':')
      .replaceAll('%2C', ',')
      .replaceAll('%0D', '\r')
      .replaceAll('%0A', '\n')
      .replaceAll('%25', '%');
  return [...text.matchAll(/^::error ([^:]*)::(.*)$/gm)].map((m) => ({
    ...Object.fromEntries(
      m[1]!
        .split(',')
        .map((pair) => pair.split('=') as [string, string])
        .map(([k, v]) => [k, unescapeCommand(v)]),
    ),
    message: unescapeCommand(m[2]!),
  }));
}

/** The rows of the Markdown table under a heading, cells split on unescaped pipes. */
function tableUnder(markdown: string, heading: string): string[][] {
  const section = markdown.slice(markdown.indexOf(heading)).split('\n').slice(2);
  const end = section.findIndex((line) => !line.startsWith('|'));
  const rows = section.slice(0, end === -1 ? undefined : end);
  return rows.slice(2).map((row) =>
    row
      .slice(1, -1)
      .split(/(?<!\\)\|/)
      .map((cell) => cell.trim()),
  );
}

describe('NeedleworkSummaryReporter with GITHUB_STEP_SUMMARY and GITHUB_ACTIONS set', () => {
  it('annotates a failed criterion at its line in the spec, with its column', () => {
    const found = annotations(printed);
    expect(found).toContainEqual({
      file: 'needles/compound-alpha.needle.yaml',
      line: '3',
      col: '1',
      title: 'needlework: compound-alpha / guessed / traversed',
      message: 'expected trajectory >= 0.8, got 0.5: 1 of 2 hops',
    });
    // citation recall points at its threshold, the key that decides it.
    expect(found).toContainEqual(
      expect.objectContaining({ file: 'needles/compound-alpha.needle.yaml', line: '6', col: '3' }),
    );
  });

  it('annotates each uncited and unsupported claim at its line in the note, escaping % , : and line breaks', () => {
    const found = annotations(printed);
    expect(found).toContainEqual({
      file: 'runs/guessed/note.md',
      line: '6',
      col: '3',
      title: 'needlework: uncited claim in guessed',
      message: 'no citation covers this claim: Wren visited the site, twice: 100% sure.',
    });
    expect(found).toContainEqual({
      file: 'runs/guessed/note.md',
      line: '5',
      col: '3',
      title: 'needlework: unsupported claim in guessed',
      message: 'its citations do not support it: Halberd is a member of Ash Cell.',
    });
    expect(printed).toContain('100%25 sure.');
    expect(found).toContainEqual(
      expect.objectContaining({
        message: 'its citations do not support it: Ash Cell\\x1b]0;pwned\\x07\\x1b[2J is co-located.',
      }),
    );
    expect(printed).not.toMatch(/\u001b[\][]/);
  });

  it('annotates a hand-written test at its own line', () => {
    expect(annotations(printed)).toContainEqual({
      file: 'trip.check.mjs',
      line: '3',
      title: 'needlework: matcher / trip / traversed',
      message: 'expected recall >= 0.8, got 1',
    });
  });

  it('writes the pass rate, the regression gate against the baseline, the failures and the workups', () => {
    expect(summary).toContain('## needlework: 1 of 4 passed (25.0%) ❌');
    expect(tableUnder(summary, '## needlework')).toEqual([['1', '3', '0', '25.0%']]);
    // The gate, right under the counts: the one check that flipped from pass to fail with one trial a side is
    // named as regressed, with the note that one trial cannot tell; the spec cases the baseline did not hold are added.
    expect(summary).toContain(
      [
        '### ❌ vs 20261122T030100Z-00000001: 1 regressed; 2 added (1 failing)',
        '',
        'Compared with run 20261122T030100Z-00000001.',
        '',
        '| | case | criterion | before | after | why |',
        '| --- | --- | --- | --- | --- | --- |',
        '| regressed | compound-alpha/guessed | citation recall | pass (citation_recall 1) | fail (citation_recall 0.5) | one trial a side |',
      ].join('\n'),
    );
    expect(summary).toContain(
      '1 regressed, 0 fixed, 0 flaky, 0 moved, 0 still failing, 2 added, 0 removed, 0 unchanged\n\nNote: one trial a side cannot tell a regression from chance',
    );
    // The baseline ran no hand-written test: the matcher test of this run is not compared, and the summary says so.
    expect(summary).toContain(
      'Note: 1 check of hand-written tests not compared: the baseline ran the YAML specs only (needlework run), this run its test files too (vitest run)',
    );
    expect(summary.indexOf('### ❌ vs ')).toBeLessThan(summary.indexOf('### Failing (3)'));
    expect(summary).toContain('- ❌ <code>trip</code>: path unknown (0 passed, 1 failed)');
    expect(tableUnder(summary, '### Failing (3)')).toEqual([
      ['compound-alpha / guessed / citation recall', 'expected citation_recall &gt;= 1, got 0.5'],
      ['compound-alpha / guessed / traversed', 'expected trajectory &gt;= 0.8, got 0.5: 1 of 2 hops'],
      ['trip.check.mjs › trip &gt; books the cheapest flight', 'expected recall &gt;= 0.8, got 1'],
    ]);
    expect(summary).toContain(
      '- ❌ <code>guessed</code>: [runs/guessed](https://github.com/acme/agents/blob/abc123/runs/guessed) (1 passed, 2 failed)',
    );
  });
});

describe('NeedleworkSummaryReporter outside GitHub Actions', () => {
  it('prints and writes nothing when neither GITHUB_STEP_SUMMARY nor GITHUB_ACTIONS is set', async () => {
    vi.stubEnv('GITHUB_STEP_SUMMARY', '');
    vi.stubEnv('GITHUB_ACTIONS', '');
    const reporter = new NeedleworkSummaryReporter();
    vi.unstubAllEnvs();
    const write = vi.spyOn(process.stdout, 'write');
    await reporter.onTestRunEnd([]);
    expect(write).not.toHaveBeenCalled();
    write.mockRestore();
  });
});

describe('formatAnnotation', () => {
  it("escapes data and properties per GitHub's workflow-command rules", () => {
    expect(
      formatAnnotation({
        file: 'a,b:c.md',
        line: 2,
        col: 1,
        title: 'x: y, z',
        message: '50%\r\nnext: line, more',
      }),
    ).toBe('::error file=a%2Cb%3Ac.md,line=2,col=1,title=x%3A y%2C z::50%25%0D%0Anext: line, more');
  });
});
