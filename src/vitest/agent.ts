import { join, relative, resolve } from 'node:path';
import { describe, type TestAPI, test } from 'vitest';
import { CallCassette, type CallCassetteMode, CassetteMissError } from '../cassette/calls.js';
import type { Workup } from '../model/workup.js';
import { createRecorder } from '../recorder/recorder.js';
import type { Recorder, RecorderOptions } from '../recorder/types.js';
import { saveWorkup } from '../workup/save.js';

/** What an agent gets for one run besides its input. */
export interface AgentRun {
  /** A recorder for this run (id, task, trial and input set): feed it, or hand it to a harness (`recordAiSdk(recorder)`). */
  recorder: Recorder;
  /**
   * The cassette for tool calls and model responses, when the agent is configured with one (`cassetteModel`, ...): this
   * trial's view of it, so each trial records its own calls and replays them as recorded.
   */
  cassette?: CallCassette;
  /** The task this run is a trial of. */
  task: string;
  /** Which trial of the task this is, from 1. */
  trial: number;
}

// biome-ignore lint/suspicious/noConfusingVoidType: an agent that records through `run.recorder` returns nothing
type AgentResult = Workup | undefined | void;

/**
 * Runs the agent on one input. Return nothing to take the workup from `run.recorder`, or a workup of your own (for
 * example `fromAiSdkResult(...)`), which gets the run's id, task and trial.
 */
export type Agent = (input: string, run: AgentRun) => Promise<AgentResult> | AgentResult;

export interface AgentTestOptions {
  /** Recorder options for every run: the `ledger` mapping for tools that return graph facts, extra `meta`. */
  recorder?: Pick<RecorderOptions, 'ledger' | 'meta' | 'clock'>;
  /**
   * Where each run's workup is saved, as `<folder>/<test file>/<test name>[.trial-<n>]/`, so the reporters link it and
   * `needlework score` can re-check it; `false` saves nothing. The plugin's `saveWorkups` option sets it for a whole
   * run (through `NEEDLEWORK_SAVE_WORKUPS`).
   * @default process.env.NEEDLEWORK_SAVE_WORKUPS ?? '.needlework/workups'
   */
  workups?: string | false;
  /**
   * Record the agent's tool calls and model responses once and replay them offline: a cassette file, or the file and
   * a mode. The mode defaults to `NEEDLEWORK_CASSETTE`, else `replay` on CI (`CI` set) and `auto` elsewhere.
   */
  cassette?: string | { file: string; mode?: CallCassetteMode };
}

export interface RunAgentOptions {
  /** The task the runs are trials of. @default the test's name */
  task?: string;
}

/** Runs the configured agent once (a workup) or `repeats` times (that many workups, trials 1..k of one task). */
export interface RunAgent {
  (input: string, options?: RunAgentOptions & { repeats?: undefined }): Promise<Workup>;
  (input: string, options: RunAgentOptions & { repeats: number }): Promise<Workup[]>;
}

export interface AgentFixtures {
  runAgent: RunAgent;
}

/**
 * `test` with a `runAgent` fixture for one agent, configured once:
 * `const it = agentTest(agent); it('finds the link', async ({ runAgent }) => { ... })`.
 * Each run is recorded and saved (see `workups`); a run that throws is saved as a failed run, then its error fails
 * the test. With `repeats`, a trial that throws is a failed trial (`succeeded: false`, `meta.error`) and the others
 * still run. A replay that misses its cassette always fails the test, naming the call.
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { agentTest } from 'needlework/vitest';
 *
 * // An agent that records one tool call and answers; a real one hands `run.recorder` to its SDK's harness.
 * const it = agentTest(
 *   async (input, run) => {
 *     const call = run.recorder.toolCall('search', { query: input });
 *     run.recorder.toolResult(call, { hits: 1 });
 *     run.recorder.answer('Compound-Alpha');
 *   },
 *   { workups: false },
 * );
 *
 * it('answers from one search', async ({ runAgent }) => {
 *   const workup = await runAgent('Where do Halberd and Wren meet?');
 *   expect(workup.trajectory?.final_answer).toBe('Compound-Alpha');
 *   expect(workup.trajectory?.steps.filter((s) => s.step_type === 'tool_call')).toHaveLength(1);
 * });
 * ```
 */
export function agentTest(agent: Agent, options: AgentTestOptions = {}): TestAPI<AgentFixtures> {
  return test.extend<AgentFixtures>({
    runAgent: async ({ task }, use) => {
      const cassette = await openCassette(options.cassette);
      const folder = workupFolder(options.workups, task.file.name);
      const name = slug([...suiteNames(task), task.name].join(' '));
      let calls = 0;
      const runAgent = async (input: string, runOptions: RunAgentOptions & { repeats?: number } = {}) => {
        calls++;
        const base = calls === 1 ? name : `${name}-${calls}`;
        const taskName = runOptions.task ?? base;
        if (runOptions.repeats === undefined) {
          const { workup, error } = await runOnce(agent, options, {
            input,
            id: base,
            task: taskName,
            trial: 1,
            cassette,
            folder,
          });
          if (error !== undefined) throw error;
          return workup;
        }
        const k = runOptions.repeats;
        if (!Number.isInteger(k) || k < 1)
          throw new TypeError(`runAgent: repeats must be a whole number of at least 1, got ${k}`);
        const workups: Workup[] = [];
        for (let trial = 1; trial <= k; trial++) {
          const id = `${base}.trial-${trial}`;
          const { workup, error } = await runOnce(agent, options, {
            input,
            id,
            task: taskName,
            trial,
            cassette,
            folder,
          });
          if (error instanceof CassetteMissError) throw error;
          workups.push(workup);
        }
        return workups;
      };
      await use(runAgent as RunAgent);
      await cassette?.flush();
    },
  });
}

/**
 * `describe(name, ...)` whose body gets `it` with the agent's `runAgent` fixture (see `agentTest`).
 * @example
 * ```ts
 * import { expect } from 'vitest';
 * import { describeAgent } from 'needlework/vitest';
 *
 * describeAgent('the answering agent', (input, run) => run.recorder.answer(`echo: ${input}`), { workups: false }, (it) => {
 *   it('answers each input', async ({ runAgent }) => {
 *     const trials = await runAgent('hello', { repeats: 2 });
 *     expect(trials.map((w) => w.trajectory?.final_answer)).toEqual(['echo: hello', 'echo: hello']);
 *   });
 * });
 * ```
 */
export function describeAgent(
  name: string,
  agent: Agent,
  options: AgentTestOptions,
  body: (it: TestAPI<AgentFixtures>) => void,
): void {
  describe(name, () => body(agentTest(agent, options)));
}

interface RunPlan {
  input: string;
  id: string;
  task: string;
  trial: number;
  cassette: CallCassette | undefined;
  folder: string | undefined;
}

async function runOnce(
  agent: Agent,
  options: AgentTestOptions,
  plan: RunPlan,
): Promise<{ workup: Workup; error?: unknown }> {
  const { input, id, task, trial } = plan;
  const recorder = createRecorder({ ...options.recorder, id, task, trial, input });
  const cassette = plan.cassette?.forTrial(trial);
  const missesBefore = cassette?.misses.length ?? 0;
  let workup: Workup;
  let error: unknown;
  try {
    workup =
      (await agent(input, { recorder, task, trial, ...(cassette ? { cassette } : {}) })) ?? recorder.workup();
  } catch (thrown) {
    error = thrown;
    recorder.fail(thrown);
    workup = recorder.workup();
  }
  // The first replay miss is what failed the run, even when the SDK swallowed it (a tool's miss becomes a tool error
  // the model is then asked about, and that model call misses in turn).
  const miss = cassette?.misses[missesBefore];
  if (miss) error = miss;
  const meta: Workup['meta'] = { ...workup.meta, task, trial };
  if (cassette) {
    const use = cassette.use();
    meta.cassette = { ...use, file: relative(process.cwd(), use.file) || use.file };
  }
  workup = { ...workup, id, meta };
  if (plan.folder !== undefined) {
    const dir = await saveWorkup(workup, join(plan.folder, id));
    workup.meta.path = dir;
  }
  return error === undefined ? { workup } : { workup, error };
}

async function openCassette(option: AgentTestOptions['cassette']): Promise<CallCassette | undefined> {
  if (option === undefined) return undefined;
  const file = typeof option === 'string' ? option : option.file;
  const fromEnv = process.env.NEEDLEWORK_CASSETTE as CallCassetteMode | undefined;
  const mode =
    (typeof option === 'string' ? undefined : option.mode) ?? fromEnv ?? (process.env.CI ? 'replay' : 'auto');
  return CallCassette.open({ file: resolve(file), mode });
}

function workupFolder(option: AgentTestOptions['workups'], testFile: string): string | undefined {
  if (option === false) return undefined;
  const root = option ?? process.env.NEEDLEWORK_SAVE_WORKUPS ?? '.needlework/workups';
  return resolve(root, testFile.replace(/\.(test|spec)\.[cm]?[jt]sx?$/, ''));
}

function suiteNames(task: { suite?: { name: string; suite?: unknown } | undefined }): string[] {
  const names: string[] = [];
  for (let s = task.suite as { name: string; suite?: unknown } | undefined; s; s = s.suite as typeof s) {
    if (s.name !== '') names.unshift(s.name);
  }
  return names;
}

/** A test's name as a folder name: what a file name may hold, spaces as `-`. */
function slug(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]+/g, '-').replace(/^-+|-+$/g, '') || 'run';
}
