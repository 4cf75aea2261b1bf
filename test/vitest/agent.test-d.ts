import { expectTypeOf, it } from 'vitest';
import type { Workup } from '../../src/model/workup.js';
import { type Agent, agentTest, type RunAgent } from '../../src/vitest/agent.js';

it('runAgent gives one workup, or an array of them with repeats', () => {
  expectTypeOf<RunAgent>().toBeCallableWith('question');
  const run = {} as RunAgent;
  expectTypeOf(run('q')).resolves.toEqualTypeOf<Workup>();
  expectTypeOf(run('q', { repeats: 3 })).resolves.toEqualTypeOf<Workup[]>();
  expectTypeOf(run('q', { task: 'bridge' })).resolves.toEqualTypeOf<Workup>();
});

it('an agent may record through its recorder and return nothing, or return a workup', () => {
  expectTypeOf(async () => {}).toExtend<Agent>();
  expectTypeOf((_input: string, run: Parameters<Agent>[1]) => run.recorder.workup()).toExtend<Agent>();
  expectTypeOf(agentTest(async () => {})).toHaveProperty('extend');
});
