import { describe, expect, it } from 'vitest';
import { buildJUnitXml } from '../../src/report/junit/build.js';
import { trialRecord } from './trial-records.js';

/** Trial `n` of task `book` (or of no task) on criterion `grounded`. */
const trial = (n: number, pass: boolean, task: string | undefined = 'book') =>
  trialRecord(task, n, 'grounded', pass);

/** The properties of the suite of one workup, as name=value lines. */
function properties(xml: string, workup: string): string[] {
  const suite =
    xml.split('<testsuite ').find((s) => s.includes(`name="needlework.workup" value="${workup}"`)) ?? '';
  return [...suite.matchAll(/<property name="([^"]+)" value="([^"]*)"\/>/g)].map((m) => `${m[1]}=${m[2]}`);
}

describe('JUnit properties of trials', () => {
  it("carry the task's trials, passes, Wilson interval, pass@k, pass^k and flakiness on each trial's suite", async () => {
    const xml = await buildJUnitXml([trial(1, true), trial(2, true), trial(3, false), trial(4, true)], {
      name: 'n',
    });
    expect(properties(xml, 'book/3').filter((p) => p.startsWith('grounded.'))).toEqual([
      'grounded.metric=grounded',
      'grounded.value=0',
      'grounded.threshold=0.8',
      'grounded.comparator=>=',
      'grounded.verdict=fail',
      'grounded.task=book',
      'grounded.trials=4',
      'grounded.passes=3',
      'grounded.pass_rate=0.75',
      'grounded.pass_rate_low=0.300642',
      'grounded.pass_rate_high=0.954413',
      'grounded.pass_at_1=0.75',
      'grounded.pass_at_4=1',
      'grounded.pass_hat_1=0.75',
      'grounded.pass_hat_4=0',
      'grounded.flaky=true',
    ]);
  });

  it('adds nothing for a workup that names no task', async () => {
    const xml = await buildJUnitXml([trial(1, true, undefined)], { name: 'n' });
    expect(properties(xml, 'solo/1').some((p) => p.startsWith('grounded.trials'))).toBe(false);
  });
});
