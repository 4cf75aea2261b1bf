import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runScore } from '../../src/cli/commands/score.js';
import { citationPrecision, createVerifierFromOptions } from '../../src/entailment/index.js';
import { citedClaims } from '../../src/metrics/citations/index.js';
import { loadWorkup } from '../../src/workup/load.js';
import { writeTinyModel } from '../entailment/helpers/tiny-model.mjs';
import { captureIo } from '../helpers/io.js';
import { useTmpDir } from '../helpers/tmp.js';
import { type FakeJudgeServer, startFakeJudge } from '../judge/fake-server.js';

const ROOT = new URL('../../', import.meta.url).pathname;
const tmp = useTmpDir();
let server: FakeJudgeServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('needlework score --entail', () => {
  it('adds citation precision and entailed recall from the NLI model to the scorecard', async () => {
    const model = await writeTinyModel(join(await tmp(), 'model'));
    const io = captureIo();
    const code = await runScore(
      {
        workup: join(ROOT, 'fixtures/workups/unsupported'),
        needles: [],
        entail: { model, cache: false },
        json: true,
      },
      io,
    );
    const out = JSON.parse(io.stdout()) as {
      lines: Array<{ group: string; metric: string; status: string }>;
      report: { entailment: { precision: number; claims: unknown[] } };
    };
    expect(out.lines.filter((l) => l.group === 'entailment').map((l) => l.metric)).toEqual([
      'citation precision',
      'entailed recall',
    ]);
    // The scorecard reports what the library computes with the same model.
    const workup = await loadWorkup(join(ROOT, 'fixtures/workups/unsupported'));
    const direct = await citationPrecision(
      workup,
      (await createVerifierFromOptions({ model, cache: false }))!,
    );
    expect(out.report.entailment.precision).toBe(direct.precision);
    expect(out.report.entailment.claims).toHaveLength(direct.claims.length);
    expect(direct.claims.length).toBe(citedClaims(workup.note!).length);
    const failing = out.lines.some((l) => l.status === 'fail');
    expect(code).toBe(failing ? 1 : 0);
  });

  it('says how to configure a model when none is given', async () => {
    const io = captureIo();
    const code = await runScore(
      { workup: join(ROOT, 'fixtures/workups/grounded'), needles: [], entail: { env: {} } },
      io,
    );
    expect(code).toBe(1);
    expect(io.stderr()).toContain(
      '✗ --entail: no NLI model: give --nli-model <dir|hf:owner/name> or set NEEDLEWORK_NLI_MODEL',
    );
  });
});

describe('needlework score --rubric', () => {
  it('scores each criterion with the judge over HTTP and prints the weighted total', async () => {
    server = await startFakeJudge(() => ({
      content: JSON.stringify({ rationale: 'weighs Depot-Seven', score: 4 }),
    }));
    const io = captureIo();
    const code = await runScore(
      {
        workup: join(ROOT, 'fixtures/workups/grounded'),
        needles: [],
        rubrics: [join(ROOT, 'needles/icd-203.rubric.yaml')],
        judge: server.url,
        samples: 1,
      },
      io,
    );
    expect(code).toBe(0);
    expect(server.received).toHaveLength(4);
    expect(io.stdout()).toMatch(
      /rubric icd-203\n\s+pass\s+alternatives\s+4 of 5\s+>= 3 of 5\s+alternatives: 4 of 5 \(threshold 3\); 100% of 1 samples agree, spread 0; weighs Depot-Seven\n/,
    );
    expect(io.stdout()).toMatch(/info\s+weighted total\s+4\.00\n/);
  });
});
