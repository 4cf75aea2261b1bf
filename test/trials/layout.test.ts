import { cp, rm, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { UserError } from '../../src/errors/index.js';
import { loadWorkup, loadWorkups } from '../../src/workup/load.js';
import { trialFromLayout } from '../../src/workup/trial-layout.js';
import { useTmpDir } from '../helpers/tmp.js';

const grounded = resolve(import.meta.dirname, '../../fixtures/workups/grounded');
const tmp = useTmpDir();

/** The grounded fixture run without its meta.json (which names a task). */
async function copyRun(dir: string): Promise<void> {
  await cp(grounded, dir, { recursive: true });
  await rm(join(dir, 'meta.json'));
}

describe('the <task>/<trial>/ layout', () => {
  it('reads a numbered folder as a trial of the task its parent names', () => {
    expect(trialFromLayout('runs/book-flight/3')).toEqual({
      id: 'book-flight/3',
      task: 'book-flight',
      trial: 3,
    });
    expect(trialFromLayout('/x/refund/trial-02')).toEqual({
      id: 'refund/trial-02',
      task: 'refund',
      trial: 2,
    });
    expect(trialFromLayout('runs/grounded')).toBeUndefined();
    expect(trialFromLayout('7')).toBeUndefined();
  });

  it('loads every trial of every task with a unique id, and lets meta.json name the task instead', async () => {
    const root = await tmp();
    for (const task of ['alpha', 'beta'])
      for (const trial of ['1', '2']) await copyRun(join(root, task, trial));
    await writeFile(join(root, 'beta', '2', 'meta.json'), JSON.stringify({ task: 'gamma', trial: 'second' }));
    const { workups, failures } = await loadWorkups(root);
    expect(failures).toEqual([]);
    expect(workups.map((w) => [w.id, w.meta.task, w.meta.trial])).toEqual([
      ['alpha/1', 'alpha', 1],
      ['alpha/2', 'alpha', 2],
      ['beta/1', 'beta', 1],
      ['beta/2', 'gamma', 'second'],
    ]);
  });

  it('reports a meta.json task or trial of the wrong type at its line and column', async () => {
    const dir = join(await tmp(), 'run');
    await cp(grounded, dir, { recursive: true });
    await writeFile(join(dir, 'meta.json'), '{\n  "task": 5,\n  "trial": 0\n}\n');
    const error = await loadWorkup(dir).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(UserError);
    expect((error as UserError).diagnostics).toEqual([
      {
        file: join(dir, 'meta.json'),
        line: 2,
        column: 11,
        message: 'task must be a non-empty string, got 5',
      },
      {
        file: join(dir, 'meta.json'),
        line: 3,
        column: 12,
        message: 'trial must be a positive integer or a non-empty label, got 0',
      },
    ]);
  });

  it('keeps a plain workup its own task: no task field at all', async () => {
    const dir = join(await tmp(), 'grounded');
    await copyRun(dir);
    const workup = await loadWorkup(dir);
    expect([workup.id, workup.meta.task, workup.meta.trial]).toEqual(['grounded', undefined, undefined]);
  });
});
