import { readFile, stat } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NeedleworkHtmlReporter } from '../../reporters/html.js';
import { NeedleworkJUnitReporter } from '../../reporters/junit.js';
import { NeedleworkTrendReporter } from '../../reporters/trend.js';
import { openStore } from '../../src/history/store/open.js';
import type { TrendHistory } from '../../src/history/types.js';
import { readReport } from '../../src/ui/report/read.js';
import { historyOf } from '../history/read.js';
import {
  checkMeta,
  type GeneratedTest,
  makeProject,
  normalizeJUnit,
  removeProject,
  runVitest,
  testFileSource,
} from './harness.js';

/** Four test files (so two shards split them), each with needlework checks of several outcomes and a plain test. */
function files(): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [n, spec] of ['alpha', 'bravo', 'charlie', 'delta'].entries()) {
    const tests: GeneratedTest[] = [];
    for (const workup of ['grounded', 'guessed']) {
      for (const [c, criterion] of ['surfaced', 'traversed', 'cited'].entries()) {
        const value = workup === 'grounded' ? 1 - c * 0.05 : 0.2 + n * 0.1;
        const pass = value >= 0.8;
        tests.push({
          describe: [spec, workup],
          name: criterion,
          meta: checkMeta({ spec, workup, criterion, value, verdict: pass ? 'pass' : 'fail' }),
          outcome: pass ? 'pass' : 'fail',
          error: `expected ${value} to be >= 0.8`,
        });
      }
    }
    tests.push({
      describe: [spec, 'guessed'],
      name: 'cost',
      meta: checkMeta({ spec, workup: 'guessed', criterion: 'cost', value: null, verdict: 'not-applicable' }),
      outcome: 'skip',
    });
    tests.push({ describe: ['plain'], name: `plain test ${n}`, outcome: 'pass' });
    out[`${spec}.check.mjs`] = testFileSource(tests);
  }
  return out;
}

const reporters = (prefix: string) => [
  new NeedleworkJUnitReporter({ outputFile: `${prefix}-junit.xml` }),
  new NeedleworkTrendReporter({ store: `${prefix}-store` }),
  new NeedleworkHtmlReporter({ outputFile: `${prefix}-report.html`, trendFile: false }),
];

let root: string;
beforeAll(async () => {
  root = await makeProject(files());
  await runVitest(root, reporters('single'));
  await runVitest(root, [...reporters('shard'), ['blob', {}]], { shard: '1/2' });
  await runVitest(root, [...reporters('shard'), ['blob', {}]], { shard: '2/2' });
  await runVitest(root, reporters('merged'), { mergeReports: join(root, '.vitest-reports') });
}, 300_000);
afterAll(() => removeProject(root));

const exists = (path: string) =>
  stat(path).then(
    () => true,
    () => false,
  );

describe('a sharded run merged with --merge-reports', () => {
  it('split the files between the shards', async () => {
    expect(await exists(join(root, '.vitest-reports/blob-1-2.json'))).toBe(true);
    expect(await exists(join(root, '.vitest-reports/blob-2-2.json'))).toBe(true);
  });

  it('gives byte-identical JUnit to one run, after normalising times', async () => {
    const single = normalizeJUnit(await readFile(join(root, 'single-junit.xml'), 'utf8'), root);
    const merged = normalizeJUnit(await readFile(join(root, 'merged-junit.xml'), 'utf8'), root);
    expect(single).toContain('<testsuite name="delta.guessed"');
    expect(merged).toBe(single);
  });

  it('records the same trend entry as one run (minus id and time), and none from the shards', async () => {
    const read = async (name: string) => {
      const store = await openStore(join(root, name), { mustExist: true });
      try {
        return await historyOf(store);
      } finally {
        await store.close();
      }
    };
    const single = await read('single-store');
    const merged = await read('merged-store');
    expect(await exists(join(root, 'shard-store'))).toBe(false);
    expect(single.runs).toHaveLength(1);
    expect(merged.runs).toHaveLength(1);
    const strip = ({ id: _id, time: _time, ...rest }: TrendHistory['runs'][number]) => rest;
    expect(single.runs[0]!.checks).toHaveLength(28);
    expect(strip(merged.runs[0]!)).toEqual(strip(single.runs[0]!));
  });

  it('gives the same HTML report data as one run, after normalising times', async () => {
    // The run's id and end time are its own; durations are not a result.
    const data = async (name: string) => {
      const { info, answers } = readReport(await readFile(join(root, name), 'utf8'));
      return JSON.stringify([...answers])
        .replaceAll(info.run, 'RUN')
        .replace(/"time":"[^"]*"/g, '"time":""')
        .replace(/"durationMs":[\d.e-]+/g, '"durationMs":0');
    };
    const single = await data('single-report.html');
    expect(single).toContain('"workup":"guessed"');
    expect(single).toContain('plain test 3');
    expect(await data('merged-report.html')).toBe(single);
  });
});
