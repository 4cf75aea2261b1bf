import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { rubricTotalMeasured } from '../../src/checks/rubric.js';
import { createCli } from '../../src/cli/cli.js';
import { judgeOptions, runJudge } from '../../src/cli/commands/judge.js';
import type { Io } from '../../src/cli/io.js';
import type { RubricScore } from '../../src/rubric/types.js';
import { type FakeJudgeServer, startFakeJudge, verdict } from './fake-server.js';

const RUBRIC = 'needles/icd-203.rubric.yaml';
const GROUNDED = 'fixtures/workups/grounded';

function collect(): Io & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { out: (t) => stdout.push(t), err: (t) => stderr.push(t), color: false, stdout, stderr };
}

let dir: string;
let server: FakeJudgeServer | undefined;
beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'needlework-judge-cli-'));
});
afterEach(async () => {
  vi.unstubAllGlobals();
  await server?.close();
  server = undefined;
  await rm(dir, { recursive: true, force: true });
});

/** Scores 4 on every criterion except accuracy, which the judge answers in prose. */
async function serve(): Promise<FakeJudgeServer> {
  server = await startFakeJudge((request) => {
    const text = request.body.messages[1]!.content;
    if (text.includes('Criterion: Makes accurate judgments')) return { content: 'It seems accurate enough.' };
    return { content: verdict(4, 'Meets anchor 4.'), usage: { prompt_tokens: 1000, completion_tokens: 100 } };
  });
  return server;
}

describe('needlework judge', () => {
  it('prints each criterion with its score, agreement, rationale, the judge failure and the cost; exits 1', async () => {
    const live = await serve();
    const io = collect();
    const code = await runJudge(
      {
        workups: [GROUNDED],
        rubric: RUBRIC,
        judge: live.url,
        model: 'm',
        price: { input: 1, output: 10 },
        env: {},
      },
      io,
    );
    expect(code).toBe(1);
    expect(io.stdout.join('\n')).toBe(
      [
        'icd-203 on grounded (model m, 3 samples per criterion)',
        '  ✓ alternatives   4 / 5 (threshold 3; agreement 100%, spread 0 [4 4 4])',
        '      Meets anchor 4.',
        '  ✓ argumentation  4 / 5 (threshold 3; agreement 100%, spread 0 [4 4 4])',
        '      Meets anchor 4.',
        '  ✓ relevance      4 / 5 (threshold 3; agreement 100%, spread 0 [4 4 4])',
        '      Meets anchor 4.',
        '  ! accuracy       no score',
        '      the judge answered 2 times without a valid verdict (the answer is not JSON)',
        '        expected: a JSON object {"rationale": string, "score": integer 1 to 5} and nothing else',
        '        answer 1: "It seems accurate enough."',
        '        answer 2: "It seems accurate enough."',
        '  total 4 against threshold 3: incomplete',
        '  12 judgements, 15 calls, 9600 input + 1020 output tokens, $0.0198',
        '',
      ].join('\n'),
    );
  });

  it('records to a cassette, then replays it with no network and exits 0 when the rubric passes', async () => {
    server = await startFakeJudge(() => ({ content: verdict(5, 'Exemplary.') }));
    const cassette = join(dir, 'judge.cassette.json');
    const options = judgeOptions([GROUNDED], {
      rubric: RUBRIC,
      judge: server.url,
      judgeModel: 'm',
      cassette,
      record: true,
      samples: '2',
      json: true,
    });
    const first = collect();
    expect(await runJudge({ ...options, env: {} }, first)).toBe(0);
    expect(server.received).toHaveLength(8);
    await server.close();

    const fetch = vi.fn(() => Promise.reject(new Error('the network was used')));
    vi.stubGlobal('fetch', fetch);
    const second = collect();
    const replay = judgeOptions([GROUNDED], {
      rubric: RUBRIC,
      judge: `replay:${cassette}`,
      samples: 2,
      json: true,
    });
    expect(await runJudge(replay, second)).toBe(0);
    expect(fetch).not.toHaveBeenCalled();
    const [recorded] = JSON.parse(first.stdout.join('\n')) as RubricScore[];
    const [replayed] = JSON.parse(second.stdout.join('\n')) as RubricScore[];
    expect(replayed!.criteria.map((c) => [c.criterion, c.score, c.rationale])).toEqual(
      recorded!.criteria.map((c) => [c.criterion, c.score, c.rationale]),
    );
    expect(replayed!.usage).toMatchObject({ requests: 8, cached: 8, calls: 0, costUsd: 0 });
  });

  it('scores from the samples that answered and lists the ones that failed', async () => {
    server = await startFakeJudge((_, i) =>
      i === 0 ? { status: 400, raw: '{"error":{"message":"bad"}}' } : { content: verdict(4) },
    );
    const io = collect();
    const code = await runJudge(
      {
        workups: [GROUNDED],
        rubric: RUBRIC,
        judge: server.url,
        model: 'm',
        samples: 2,
        concurrency: 1,
        env: {},
      },
      io,
    );
    expect(code).toBe(0);
    expect(io.stdout.slice(1, 4)).toEqual([
      '  ✓ alternatives   4 / 5 (threshold 3; agreement 100%, spread 0 [4], 1 of 2 samples answered)',
      '      Meets anchor 4.',
      '      sample 1: the judge answered HTTP 400: bad',
    ]);
  });

  it('reports a workup that does not load and still scores the others', async () => {
    await serve();
    const io = collect();
    const code = await runJudge(
      { workups: [GROUNDED, join(dir, 'missing')], rubric: RUBRIC, judge: server!.url, samples: 1, env: {} },
      io,
    );
    expect(code).toBe(1);
    expect(io.stdout[0]).toBe('icd-203 on grounded (model gpt-4o-mini, 1 samples per criterion)');
    expect(io.stderr.join('\n')).toContain(`✗ ${join(dir, 'missing')}:`);
  });

  it('rejects a needle given as the rubric', async () => {
    await expect(
      runJudge({ workups: [GROUNDED], rubric: 'needles/compound-alpha.needle.yaml', env: {} }, collect()),
    ).rejects.toThrow(
      'needles/compound-alpha.needle.yaml: expected a rubric spec (*.rubric.yaml), got a needle',
    );
  });

  it.each([
    [[], { rubric: RUBRIC }, 'missing <workup>: the workup folders or files to score'],
    [[GROUNDED], {}, 'missing --rubric <spec>: the rubric to score, as needles/icd-203.rubric.yaml'],
    [[GROUNDED], { rubric: RUBRIC, record: true }, '--record needs --cassette <file>'],
    [
      [GROUNDED],
      { rubric: RUBRIC, record: true, strict: true, cassette: 'c' },
      '--record and --strict exclude each other',
    ],
    [[GROUNDED], { rubric: RUBRIC, samples: '0' }, '--samples expects a whole number of at least 1, got 0'],
    [
      [GROUNDED],
      { rubric: RUBRIC, price: '0.15' },
      '--price expects <input>,<output> in USD per 1M tokens, as 0.15,0.6; got 0.15',
    ],
  ])('rejects %j %j as a usage error', (workups, flags, message) => {
    expect(() => judgeOptions(workups, flags)).toThrow(message);
  });

  it('reads --temperature none as sending no temperature', () => {
    expect(judgeOptions([GROUNDED], { rubric: RUBRIC, temperature: 'none' }).temperature).toBeNull();
    expect(judgeOptions([GROUNDED], { rubric: RUBRIC, temperature: 0.7 }).temperature).toBe(0.7);
    expect(() => judgeOptions([GROUNDED], { rubric: RUBRIC, temperature: 'hot' })).toThrow(
      '--temperature expects a non-negative number, got hot',
    );
  });

  it('is registered on the command line with its flags', () => {
    const cli = createCli(collect());
    cli.parse(
      [
        'node',
        'needlework',
        'judge',
        GROUNDED,
        '--rubric',
        RUBRIC,
        '--judge',
        'replay:c.json',
        '--strict',
        '--cassette',
        'c.json',
        '--judge-model',
        'llama3.1',
      ],
      { run: false },
    );
    expect(cli.matchedCommand?.name).toBe('judge');
    expect(judgeOptions(cli.args as string[], cli.options)).toMatchObject({
      workups: [GROUNDED],
      rubric: RUBRIC,
      judge: 'replay:c.json',
      model: 'llama3.1',
      cassette: 'c.json',
      mode: 'strict',
    });
  });
});

describe('needlework judge and the rubric check agree on one verdict (decided in src/checks/rubric.ts)', () => {
  /** The judge's exit code and what the run's rubric check says of the same scores, the judge scoring `score(criterion)`. */
  async function both(score: (criterion: string) => number) {
    server = await startFakeJudge((request) => {
      const text = request.body.messages[1]!.content;
      const criterion = /Criterion: (.*)/.exec(text)![1]!;
      return { content: verdict(score(criterion), 'As scored.') };
    });
    const io = collect();
    const code = await runJudge(
      { workups: [GROUNDED], rubric: RUBRIC, judge: server.url, model: 'm', json: true, env: {} },
      io,
    );
    const [result] = JSON.parse(io.stdout.join('\n')) as Array<RubricScore & { verdict: string }>;
    return {
      code,
      total: result!.total,
      printed: result!.verdict,
      check: rubricTotalMeasured(result!).verdict,
    };
  }

  it('at the threshold exactly: the total 3 against 3 passes both (exit 0)', async () => {
    expect(await both(() => 3)).toEqual({ code: 0, total: 3, printed: 'pass', check: 'pass' });
  });

  it('a quarter point under it: 2.75 against 3 fails both (exit 1)', async () => {
    const scored = await both((criterion) => (criterion.startsWith('Makes accurate') ? 2 : 3));
    expect(scored).toEqual({ code: 1, total: 2.75, printed: 'fail', check: 'fail' });
  });
});
