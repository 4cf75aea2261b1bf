import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { cp, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { beforeAll, describe, expect, it } from 'vitest';
import { BIN, needlework, type Outcome, outcomes } from '../helpers/needlework-run.js';
import { useTmpDir } from '../helpers/tmp.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
const run = (cwd: string, ...args: string[]): Promise<Outcome> => needlework(cwd, 'run', ...args);

/** A project of the given needle files (name to YAML) and fixture workups copied under `workups/`. */
async function projectWith(needles: Record<string, string>, workups: string[]): Promise<string> {
  const dir = await tmp();
  await mkdir(join(dir, 'needles'));
  for (const [name, text] of Object.entries(needles)) await writeFile(join(dir, 'needles', name), text);
  for (const w of workups)
    await cp(join(ROOT, 'fixtures/workups', w), join(dir, 'workups', w), { recursive: true });
  return dir;
}

/** A user's project: the bundled needles and the fixture workups, and no Vitest config. */
async function project(): Promise<string> {
  const dir = await tmp();
  await cp(join(ROOT, 'needles'), join(dir, 'needles'), { recursive: true });
  await cp(join(ROOT, 'fixtures/workups'), join(dir, 'workups'), { recursive: true });
  return dir;
}

const CRITERIA = [
  'surfaced',
  'traversed',
  'grounded',
  'bridge citations',
  'citations resolve',
  'citation recall',
  'supporting facts',
  'pivot burden',
];
const FAILS: Record<string, string[]> = {
  grounded: [],
  guessed: ['traversed', 'grounded', 'bridge citations', 'pivot burden'],
  uncited: ['citation recall'],
  unsupported: [],
  dangling: ['bridge citations', 'citations resolve'],
  'single-file': [],
};

function expected(): string[] {
  const rows: string[] = [];
  for (const [workup, fails] of Object.entries(FAILS)) {
    for (const c of CRITERIA)
      rows.push(`compound-alpha-bridge > ${workup} > ${c}: ${fails.includes(c) ? 'failed' : 'passed'}`);
    // Not measured without --entail: skipped, saying so, never silently absent.
    rows.push(`compound-alpha-bridge > ${workup} > citation precision: skipped`);
  }
  for (const workup of ['cross-store-agree', 'cross-store-conflict']) {
    for (const c of [
      'surfaced',
      'traversed',
      'grounded',
      'bridge citations',
      'citations resolve',
      'citation recall',
      'supporting facts',
      'reconciled',
    ]) {
      rows.push(`wren-tie > ${workup} > ${c}: passed`);
    }
    rows.push(`wren-tie > ${workup} > citation precision: skipped`);
  }
  for (const workup of [...Object.keys(FAILS), 'cross-store-agree', 'cross-store-conflict']) {
    for (const c of ['alternatives', 'argumentation', 'relevance', 'accuracy'])
      rows.push(`icd-203 > ${workup} > ${c}: skipped`);
  }
  return rows.sort();
}

describe('needlework run on the fixture world', () => {
  let dir: string;
  let single: Outcome;

  beforeAll(async () => {
    dir = await project();
    single = await run(
      dir,
      'workups',
      '--reporter',
      'json',
      '--reporter',
      'needlework-junit',
      '--reporter',
      'needlework-trend',
    );
  });

  it('turns every spec x workup into tests with the planted verdicts, and exits 1', async () => {
    expect(single.code).toBe(1);
    expect(await outcomes(join(dir, 'needlework-report/results.json'))).toEqual(expected());
    expect(await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8')).toContain(
      'classname="compound-alpha-bridge.guessed"',
    );
  });

  it('gives the same results sharded in two and merged', async () => {
    const shards = await project();
    const first = await run(shards, 'workups', '--shard', '1/2', '--reporter', 'blob');
    const second = await run(shards, 'workups', '--shard', '2/2', '--reporter', 'blob');
    // Each shard fails when it holds a planted failure; together they hold them all.
    expect([0, 1]).toContain(first.code);
    expect([0, 1]).toContain(second.code);
    expect(Math.max(first.code, second.code)).toBe(1);
    const merged = await run(shards, '--merge-reports', '--reporter', 'json');
    expect(merged.code).toBe(1);
    expect(await outcomes(join(shards, 'needlework-report/results.json'))).toEqual(expected());
  });
});

describe('needlework run: bad input', () => {
  it('turns a broken spec and a broken workup into failing tests and runs the rest', async () => {
    const dir = await projectWith(
      {
        'ok.needle.yaml': 'id: ok\nanswer: Ash Cell\nrequired_path: [MEMBER_OF]\n',
        'bad.needle.yaml': 'id: bad\nanswer: x\nrequired_path:\n  relations: [R, 7]\n',
        'elsewhere.needle.yaml':
          'id: elsewhere\nanswer: x\nworkups: [nomatch-*]\nrequired_path: [MEMBER_OF]\n',
      },
      ['grounded'],
    );
    await mkdir(join(dir, 'workups/broken'));
    await writeFile(join(dir, 'workups/broken/provenance.jsonl'), '{"id": \n');
    const result = await run(dir, 'workups', '--reporter', 'json', '--reporter', 'default');
    expect(result.code).toBe(1);
    const rows = await outcomes(join(dir, 'needlework-report/results.json'));
    expect(rows).toContain('bad.needle.yaml > is a valid spec: failed');
    expect(rows).toContain(`ok > ${join(dir, 'workups/broken')} loads: failed`);
    expect(rows).toContain('ok > grounded > traversed: passed');
    // A spec whose patterns take no run fails its own check, rather than Vitest's "No test found in suite".
    expect(rows).toContain('elsewhere > has a run: failed');
    expect(result.stdout + result.stderr).toContain(
      `${join(dir, 'needles/elsewhere.needle.yaml')}: needle elsewhere matches no workup (looked for nomatch-* among 1 workup)`,
    );
    expect(result.stdout + result.stderr).not.toContain('No test found');
    expect(result.stdout + result.stderr).toContain(
      `${join(dir, 'needles/bad.needle.yaml')}:4:18: required_path.relations[1] must be a string`,
    );
    expect(result.stdout + result.stderr).toContain('workups/broken/provenance.jsonl:1:8: invalid JSON');
  });

  it('says so when there are no specs, and exits 2 on a malformed --shard', async () => {
    const dir = await tmp();
    const none = await run(dir);
    expect(none.code).toBe(1);
    expect(none.stderr).toContain(
      'error needles: no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) found',
    );
    const shard = await run(dir, '--shard', 'half');
    expect(shard.code).toBe(2);
    expect(shard.stderr).toContain(
      '--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got half',
    );
    const reversed = await run(dir, '--shard', '3/2');
    expect(reversed.code).toBe(2);
    expect(reversed.stderr).toContain(
      '--shard must be <index>/<count> with 1 <= index <= count, like 1/2; got 3/2',
    );
    expect(reversed.stderr).not.toMatch(/\n\s+at /);
    const reporter = await run(dir, '--reporter', 'nosuch');
    expect(reporter.code).toBe(2);
    expect(reporter.stderr).toContain(
      'error --reporter nosuch is not a reporter: use one of needlework-junit,',
    );
    expect(reporter.stderr).not.toMatch(/\n\s+at /);
  });
});

describe('needlework run refused before Vitest starts', () => {
  it('makes no store, and leaves an existing one closed and as it was', async () => {
    const dir = await projectWith(
      { 'ok.needle.yaml': 'id: ok\nanswer: Ash Cell\nrequired_path: [MEMBER_OF]\n' },
      ['grounded'],
    );
    const store = join(dir, '.needlework/store');
    const refused = ['workups', '--needles', 'elsewhere', '--reporter', 'needlework-trend'];
    // No store yet: a run refused for want of specs makes none.
    expect((await run(dir, ...refused)).code).toBe(1);
    expect(existsSync(store)).toBe(false);
    await run(dir, 'workups', '--reporter', 'needlework-trend');
    expect(existsSync(join(store, 'PG_VERSION'))).toBe(true);
    // The store exists now: the refused run leaves no lock on it, and no run in it.
    const again = await run(dir, ...refused);
    expect(again.code).toBe(1);
    expect(again.stderr).toContain(
      'error elsewhere: no specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml) found',
    );
    expect(existsSync(`${store}.lock`)).toBe(false);
    const listed = await needlework(dir, 'trend', '--last', '5');
    expect(listed.stdout.match(/^\d{8}T\d{6}Z-/gm)?.length ?? listed.stdout).toBe(1);
  });
});

describe('needlework run: the regression gate', () => {
  it('fails a passing run whose metric fell against the previous run, only when asked to', async () => {
    const dir = await projectWith(
      {
        'bridge.needle.yaml':
          'id: bridge\nanswer: Compound-Alpha\nrequired_path: [MEMBER_OF, CO_LOCATED, CO_LOCATED]\nthresholds:\n  citation_recall: 0.5\n',
      },
      ['grounded'],
    );
    // The fixed tolerance: one workup is one trial, which no significance test can call a regression.
    const args = ['workups', '--reporter', 'needlework-trend', '--tolerance', '0.02'];
    expect((await run(dir, ...args, '--fail-on-regression')).code).toBe(0);

    const note = join(dir, 'workups/grounded/note.md');
    await writeFile(
      note,
      (await readFile(note, 'utf8')).replace(
        '- Halberd is a member of Ash Cell. [cite:g1]',
        '- Halberd is a member of Ash Cell. [cite:g1] He was seen in May.',
      ),
    );
    expect((await run(dir, ...args)).code).toBe(0);

    await writeFile(
      note,
      (await readFile(note, 'utf8')).replace('He was seen in May.', 'He was seen in May. And June.'),
    );
    const gated = await run(dir, ...args, '--fail-on-regression');
    expect(gated.code).toBe(1);
    // The comparison the trend reporter prints names the check whose value fell past the tolerance.
    expect(gated.stdout).toMatch(/^needlework: vs \S+: 1 regressed$/m);
    expect(gated.stdout).toMatch(
      /^needlework: {3}regressed: bridge\/grounded citation-recall: pass \(citation_recall [\d.]+\) -> pass \(citation_recall [\d.]+\) \(past the tolerance 0\.02\)/m,
    );
  });
});

describe('needlework run: models', () => {
  it('adds a citation precision test per workup with --entail, and rubric tests with --judge', async () => {
    const { writeTinyModel } = await import('../entailment/helpers/tiny-model.mjs');
    const { startFakeJudge } = await import('../judge/fake-server.js');
    const dir = await projectWith(
      {
        'icd-203.rubric.yaml': await readFile(join(ROOT, 'needles/icd-203.rubric.yaml'), 'utf8'),
        'bridge.needle.yaml': 'id: bridge\nanswer: Compound-Alpha\nrequired_path: [MEMBER_OF]\n',
      },
      ['grounded'],
    );
    const model = await writeTinyModel(join(dir, 'model'));
    const server = await startFakeJudge(() => ({ content: JSON.stringify({ rationale: 'fine', score: 4 }) }));
    try {
      const result = await run(
        dir,
        'workups',
        '--reporter',
        'json',
        '--entail',
        '--nli-model',
        model,
        '--no-cache',
        '--judge',
        server.url,
        '--samples',
        '1',
      );
      const rows = await outcomes(join(dir, 'needlework-report/results.json'));
      expect(rows.filter((r) => r.startsWith('bridge > grounded > citation precision'))).toHaveLength(1);
      expect(rows.filter((r) => r.startsWith('icd-203 > grounded >'))).toEqual([
        'icd-203 > grounded > accuracy: passed',
        'icd-203 > grounded > alternatives: passed',
        'icd-203 > grounded > argumentation: passed',
        'icd-203 > grounded > relevance: passed',
      ]);
      expect(server.received).toHaveLength(4);
      expect([0, 1]).toContain(result.code);
    } finally {
      await server.close();
    }
  });
});

describe('needlework run --entail without a model', () => {
  it('is a usage error naming what to give, before any test runs', async () => {
    const dir = await projectWith({ 'n.needle.yaml': 'id: n\nanswer: x\nrequired_path: [R]\n' }, []);
    const { NEEDLEWORK_NLI_MODEL: _unset, ...env } = process.env;
    const result = await promisify(execFile)(process.execPath, [BIN, 'run', '--entail'], {
      cwd: dir,
      env,
    }).then(
      () => ({ code: 0, stderr: '' }),
      (error: Outcome) => error,
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      '--entail needs a model: give --nli-model <dir|hf:owner/name> or set NEEDLEWORK_NLI_MODEL',
    );
  });
});

describe('needlework run on task cases: every case is its own test in JUnit', () => {
  // Two cases of one data set over the same run: each check is spec x case x workup x criterion.
  const CASES = `id: desk
cases:
  - id: books-the-flight
    workups: [change-flight-good]
    expect:
      tools:
        must_call: [get_reservation_details]
  - id: never-cancels
    workups: [change-flight-good]
    expect:
      tools:
        must_call: [cancel_reservation]
        must_not_call: [cancel_reservation]
`;

  /** A project of the desk's cases and the one run they are checked against. */
  async function deskProject(): Promise<string> {
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await writeFile(join(dir, 'needles/desk.cases.yaml'), CASES);
    await cp(
      join(ROOT, 'examples/support/runs/change-flight-good'),
      join(dir, 'workups/change-flight-good'),
      { recursive: true },
    );
    return dir;
  }

  it('writes one test case per case x assertion, each at its assertion line, none sharing classname and name', async () => {
    const dir = await deskProject();
    const outcome = await run(dir, 'workups', '--reporter', 'needlework-junit');
    expect(outcome.code).toBe(1);
    const xml = await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8');
    const cases = [...xml.matchAll(/<testcase classname="([^"]*)" name="([^"]*)"[^>]* line="(\d+)"/g)].map(
      ([, classname, name, line]) => `${classname} ${name} :${line}`,
    );
    expect(cases).toEqual([
      'desk.books-the-flight.change-flight-good must-call :7',
      'desk.never-cancels.change-flight-good must-call :12',
      'desk.never-cancels.change-flight-good must-not-call :13',
    ]);
    expect(xml).toContain('file="needles/desk.cases.yaml"');
  });

  it('reads an unchanged spec from the spec cache and an edited one anew, verdicts and places alike', async () => {
    const dir = await deskProject();
    const junit = async (...args: string[]) => {
      expect((await run(dir, 'workups', '--reporter', 'needlework-junit', ...args)).code).toBe(1);
      const xml = await readFile(join(dir, 'needlework-report/junit.xml'), 'utf8');
      return xml.replace(/ (time|timestamp)="[^"]*"/g, '');
    };
    const entries = join(dir, 'node_modules/.vite/vitest');
    const cached = async () =>
      (await readdir(entries, { recursive: true }).catch(() => [])).filter((path) => path.endsWith('.bin'));
    const parsed = await junit('--no-spec-cache');
    expect(await cached()).toEqual([]);
    const first = await junit();
    expect(first).toBe(parsed);
    expect(await cached()).toHaveLength(1);
    expect(await junit()).toBe(first);
    // A comment line above it all: every assertion's line moves down one, which a stale spec would not show.
    await writeFile(join(dir, 'needles/desk.cases.yaml'), `# the desk's cases\n${CASES}`);
    const edited = await junit();
    // The line attributes and the failures' stack frames at the spec's lines (`desk.cases.yaml:12:9`).
    expect(edited).toBe(
      first
        .replace(/ line="(\d+)"/g, (_, line) => ` line="${Number(line) + 1}"`)
        .replace(/desk\.cases\.yaml:(\d+):/g, (_, line) => `desk.cases.yaml:${Number(line) + 1}:`),
    );
    expect(edited).not.toBe(first);
    expect(await cached()).toHaveLength(1);
  });
});

describe('needlework run on an agent answer that holds terminal commands', () => {
  it('fails the check with the escapes written out, so the terminal obeys none of them', async () => {
    const dir = await tmp();
    await mkdir(join(dir, 'needles'));
    await writeFile(
      join(dir, 'needles/desk.cases.yaml'),
      'id: desk\ncases:\n  - id: hostile\n    expect:\n      tools:\n        must_call: [search]\n',
    );
    const trajectory = JSON.parse(
      await readFile(join(ROOT, 'examples/support/runs/change-flight-good/trajectory.json'), 'utf8'),
    );
    // A tool name, which the failure lists as the run called it.
    trajectory.steps.find((s: { step_type: string }) => s.step_type === 'tool_call').tool_name =
      'look\u001b]0;pwned\u0007\u001b[2Jup';
    await mkdir(join(dir, 'workups/hostile'), { recursive: true });
    await writeFile(join(dir, 'workups/hostile/trajectory.json'), JSON.stringify(trajectory));
    await writeFile(join(dir, 'workups/hostile/meta.json'), '{"task":"hostile"}');
    const outcome = await run(dir, 'workups', '--reporter', 'default');
    expect(outcome.code).toBe(1);
    expect(outcome.stdout + outcome.stderr).not.toContain('\u001b]0;pwned');
    expect(outcome.stdout + outcome.stderr).toContain('look\\x1b]0;pwned\\x07\\x1b[2Jup');
  });
});
