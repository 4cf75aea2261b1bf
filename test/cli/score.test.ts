import { cp, mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createCli } from '../../src/cli/cli.js';
import { runScore } from '../../src/cli/commands/score.js';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
const BRIDGE = 'needles/compound-alpha.needle.yaml';
const WREN_TIE = 'needles/wren-tie.needle.yaml';

/**
 * The plain scorecard of the grounded fixture against the Compound-Alpha needle, pinned line for line: the needle's
 * lines are its checks (the same verdicts a Vitest run of the needle gives); tradecraft and trajectory are measured.
 */
const GROUNDED_CARD = [
  'workup grounded (fixtures/workups/grounded)',
  '',
  '  tradecraft',
  '    info  ICD 203 likelihood terms          2                         likely (55-80%) 5:111, unlikely (20-45%) 16:112',
  '    info  analytic confidence stated        yes                       moderate 5:81',
  '    info  non-standard hedges               0',
  '    info  likelihood/confidence confusions  0',
  '',
  '  needle compound-alpha-bridge',
  '    pass  surfaced                          1          == 1           names "Compound-Alpha" in Summary',
  '    pass  traversed                         1          == 1           traversed MEMBER_OF → CO_LOCATED → CO_LOCATED (from Halberd to Wren) via g1, g4, g5',
  '    pass  grounded                          yes                       surfaced Compound-Alpha and traversed MEMBER_OF → CO_LOCATED → CO_LOCATED',
  '    pass  bridge citations                  1          >= 1           4 bridge facts asserted, each cited to a query that returned it',
  '    pass  citations resolve                 yes                       all 8 citations resolve',
  '    pass  citation recall                   1          >= 1           7 of 7 claim sentences cited (1, at least 1 required)',
  '    n/a   citation precision                n/a        >= 1           not measured: citation precision needs an NLI model (needlework run --entail, score --entail, or the plugin’s entail option)',
  '    pass  supporting facts                  1          >= 0.8         F1 1 (at least 0.8); 0 missing, 0 extra',
  '    pass  pivot burden                      5 queries  <= 20 queries  path completed by g5 after 5 queries, 3 hops',
  '',
  '  trajectory',
  '    info  step precision                    0.71                      against grounded-gold',
  '    info  step recall                       1.00                      against grounded-gold',
  '    info  step F1                           0.83                      against grounded-gold',
  '    info  tool efficiency                   0.57                      against grounded-gold',
  '    info  redundancy rate                   0.14                      against grounded-gold',
  '    info  error recovery rate               1.00                      against grounded-gold',
  '    info  similarity (difflib ratio)        0.73                      against grounded-gold',
  '',
  '8 passed, 0 failed, 0 warnings, 1 not applicable',
].join('\n');

describe('needlework score', () => {
  it('prints the grounded scorecard, plain when not a terminal, and exits 0', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/grounded', needles: [BRIDGE] }, io)).toBe(0);
    expect(io.stdout()).toBe(GROUNDED_CARD);
    expect(io.stdout()).not.toContain('\u001b[');
    expect(io.stderr()).toBe('');
  });

  it('colours the scorecard on a terminal', async () => {
    const out: string[] = [];
    const io = { ...captureIo(), color: true, out: (text: string) => out.push(text) };
    await runScore({ workup: 'fixtures/workups/grounded', needles: [BRIDGE] }, io);
    expect(out.join('\n')).toContain('\u001b[32mpass\u001b[39m');
  });

  it('guessed: fails traversed, grounded (a guess), bridge citations and pivot burden, and exits 1', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/guessed', needles: [BRIDGE] }, io)).toBe(1);
    const out = io.stdout();
    expect(out).toMatch(
      / {4}fail {2}traversed +0 +== 1 +required MEMBER_OF → CO_LOCATED → CO_LOCATED \(from Halberd to Wren\); traversed 1 of 3 hops: no chain of facts gets past hop 1 of 3: nothing CO_LOCATED from Ash Cell \(longest chain: Halberd -MEMBER_OF-> Ash Cell\)\n/,
    );
    expect(out).toMatch(
      / {4}fail {2}grounded +no +a guess: names Compound-Alpha, but the ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED\n/,
    );
    expect(out).toContain(
      'fail  bridge citations                  0.75     >= 1           not cited to a query that returned it: Ash Cell -CO_LOCATED-> Compound-Alpha (line 10, cites g2)',
    );
    // A path never completed has an unbounded pivot burden: a failure, not "not applicable", and no value.
    expect(out).toMatch(
      / {4}fail {2}pivot burden +nothing +<= 20 queries +the ledger never completes the path\n/,
    );
    expect(out).toMatch(/4 passed, 4 failed, 1 warning, 1 not applicable$/);
  });

  it('dangling: fails resolution, naming g99 and its line', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/dangling', needles: [BRIDGE] }, io)).toBe(1);
    expect(io.stdout()).toMatch(/fail {2}citations resolve +no +1 dangling: g99 at line 13:61\n/);
  });

  it('uncited: fails structural citation recall, naming each uncited sentence with its line', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/uncited', needles: [BRIDGE] }, io)).toBe(1);
    expect(io.stdout()).toMatch(
      /fail {2}citation recall +0\.778 +>= 1 +7 of 9 claim sentences cited \(0\.778, at least 1 required\); uncited: line 11 "Wren visited the site twice in March\."; line 12 "Halberd and Wren probably know each other personally\."\n/,
    );
  });

  it.each([
    [
      'cross-store-agree',
      'stores agree (graph: Marrow Logistics; docs: Marrow Logistics); note says: agree, corroborated',
    ],
    [
      'cross-store-conflict',
      'stores conflict (graph: Marrow Logistics; docs: Tessellate Freight); note says: conflict, discrepancy',
    ],
  ])('%s: reconciliation passes with the verdict and the note’s words', async (name, detail) => {
    const io = captureIo();
    await runScore({ workup: `fixtures/workups/${name}`, needles: [WREN_TIE] }, io);
    const line = io
      .stdout()
      .split('\n')
      .find((l) => l.includes('reconciled'));
    expect(line).toMatch(/^ {4}pass {2}reconciled +1 +>= 1 +/);
    expect(line!.endsWith(detail)).toBe(true);
  });

  it('--json prints the checks, the lines and the verdict', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/guessed', needles: [BRIDGE], json: true }, io)).toBe(1);
    const json = JSON.parse(io.stdout());
    expect(json.passed).toBe(false);
    const verdicts = Object.fromEntries(
      json.report.checks.map((c: { criterion: string; verdict: string }) => [c.criterion, c.verdict]),
    );
    expect(verdicts).toEqual({
      surfaced: 'pass',
      traversed: 'fail',
      grounded: 'fail',
      'bridge-citations': 'fail',
      'citations-resolve': 'pass',
      'citation-recall': 'pass',
      'citation-precision': 'not-applicable',
      'supporting-facts': 'pass',
      'pivot-burden': 'fail',
    });
    expect(json.report.checks.find((c: { criterion: string }) => c.criterion === 'grounded')).toMatchObject({
      spec: 'compound-alpha-bridge',
      specKind: 'needle',
      workup: 'guessed',
      metric: 'grounded',
      value: false,
      evidence: { guess: true },
    });
    expect(json.lines.find((l: { metric: string }) => l.metric === 'grounded')).toEqual({
      group: 'needle compound-alpha-bridge',
      metric: 'grounded',
      value: 'no',
      threshold: '',
      status: 'fail',
      detail:
        'a guess: names Compound-Alpha, but the ledger never traversed MEMBER_OF → CO_LOCATED → CO_LOCATED',
    });
  });

  it('a metric that was not measured says so, with the flag that measures it', async () => {
    const io = captureIo();
    await runScore({ workup: 'fixtures/workups/grounded', needles: [BRIDGE] }, io);
    expect(io.stdout()).toContain(
      'n/a   citation precision                n/a        >= 1           not measured: citation precision needs an NLI model (needlework run --entail, score --entail, or the plugin’s entail option)',
    );
  });

  it('with no --needle, scores every needle in ./needles, and none when there is no such folder', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await cp(join(ROOT, WREN_TIE), join(dir, 'needles/wren-tie.needle.yaml'));
    const io = captureIo();
    await runScore({ workup: join(ROOT, 'fixtures/workups/cross-store-agree'), cwd: dir }, io);
    expect(io.stdout()).toContain('  needle wren-tie\n');
    expect(io.stdout()).not.toContain('compound-alpha-bridge');
    const bare = captureIo();
    expect(
      await runScore({ workup: join(ROOT, 'fixtures/workups/cross-store-agree'), cwd: await tmp() }, bare),
    ).toBe(0);
    // No needle section (the workup's path may well hold the word, as a checkout in a folder named needlework does).
    expect(bare.stdout()).not.toMatch(/^ {2}needle /m);
    expect(bare.stdout()).toContain('  citations\n');
  });

  it('of the needles in ./needles, scores only those whose workups patterns take the workup', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/grounded', cwd: ROOT }, io)).toBe(0);
    expect(io.stdout()).toContain('  needle compound-alpha-bridge\n');
    expect(io.stdout()).not.toContain('wren-tie');
    const other = captureIo();
    await runScore({ workup: 'fixtures/workups/cross-store-conflict', cwd: ROOT }, other);
    expect(other.stdout()).toContain('  needle wren-tie\n');
    expect(other.stdout()).not.toContain('compound-alpha-bridge');
  });

  it('lints ICD 203 tradecraft only when a needle is scored or --tradecraft asks: not a support run checked by cases', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'fixtures/workups/grounded'), join(dir, 'run'), { recursive: true });
    await writeFile(join(dir, 'run/meta.json'), JSON.stringify({ task: 'refund' }));
    await writeFile(
      join(dir, 'refund.cases.yaml'),
      'id: support\ncases:\n  - id: refund\n    expect:\n      grounded: { citations_resolve: true }\n',
    );
    const cases = captureIo();
    expect(
      await runScore({ workup: join(dir, 'run'), needles: [join(dir, 'refund.cases.yaml')] }, cases),
    ).toBe(0);
    expect(cases.stdout()).toContain('citations resolve');
    expect(cases.stdout()).not.toContain('tradecraft');
    const asked = captureIo();
    await runScore(
      { workup: join(dir, 'run'), needles: [join(dir, 'refund.cases.yaml')], tradecraft: true },
      asked,
    );
    expect(asked.stdout()).toContain('  tradecraft\n');
  });

  it('a bad needle is reported at its place and never stops the others', async () => {
    const dir = await tmp();
    const bad = join(dir, 'bad.needle.yaml');
    await writeFile(bad, 'id: bad\nanswer: 3\n');
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/grounded', needles: [BRIDGE, bad] }, io)).toBe(1);
    expect(io.stdout()).toContain('  needle compound-alpha-bridge\n');
    expect(io.stderr()).toContain(`✗ ${bad}:`);
  });

  it('a workup with no note scores its ledger; the note-based lines are not applicable and never fail', async () => {
    const dir = await tmp();
    await cp(join(ROOT, 'fixtures/workups/grounded/provenance.jsonl'), join(dir, 'provenance.jsonl'));
    const io = captureIo();
    expect(await runScore({ workup: dir, needles: [BRIDGE] }, io)).toBe(0);
    const out = io.stdout();
    expect(out).toMatch(/n\/a {3}citations resolve +n\/a +the workup has no note\n/);
    expect(out).toMatch(/n\/a {3}surfaced +n\/a +== 1 +the workup has no note\n/);
    expect(out).toMatch(/pass {2}traversed +1 +== 1 +traversed .* via g1, g4, g5\n/);
    expect(out).toMatch(/n\/a {3}grounded +n\/a +recall is not applicable \(the workup has no note\)\n/);
    expect(out).not.toContain('tradecraft');
    expect(out).toMatch(/2 passed, 0 failed, 0 warnings, 7 not applicable$/);
  });

  it('a workup that does not exist is an error message, not a stack trace', async () => {
    const io = captureIo();
    expect(await runScore({ workup: 'fixtures/workups/nope' }, io)).toBe(1);
    expect(io.stderr()).toBe('✗ fixtures/workups/nope: no such file or folder');
    expect(io.stdout()).toBe('');
  });

  it('trajectory metrics need a trajectory and a gold; a missing --gold file is reported', async () => {
    const io = captureIo();
    await runScore(
      {
        workup: 'fixtures/workups/guessed',
        gold: 'fixtures/workups/grounded/gold.trajectory.json',
        cwd: await tmp(),
      },
      io,
    );
    expect(io.stdout()).toMatch(/n\/a {3}trajectory metrics +n\/a +the workup has no trajectory\n/);
    const missing = captureIo();
    expect(
      await runScore({ workup: 'fixtures/workups/grounded', gold: 'nope.json', cwd: await tmp() }, missing),
    ).toBe(1);
    expect(missing.stderr()).toBe('✗ nope.json: no such file');
  });

  it('is registered in the CLI: repeated --needle and --json reach runScore, and its exit code is kept', async () => {
    const io = captureIo();
    const result = { code: -1 };
    const cli = createCli(io, result);
    cli.parse(
      [
        'node',
        'needlework',
        'score',
        'fixtures/workups/cross-store-agree',
        '--needle',
        WREN_TIE,
        '--needle',
        BRIDGE,
        '--json',
      ],
      { run: false },
    );
    await cli.runMatchedCommand();
    const json = JSON.parse(io.stdout());
    expect([...new Set(json.report.checks.map((c: { spec: string }) => c.spec))]).toEqual([
      'wren-tie',
      'compound-alpha-bridge',
    ]);
    expect(result.code).toBe(1);
  });
});
