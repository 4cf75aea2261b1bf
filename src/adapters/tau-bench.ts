import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import { makeStep, makeTrajectory, type Trajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, describe, isRecord, Problems, renderPath } from './common.js';
import type { ImportedWorkup, ImportResult } from './imported.js';
import { fromOpenAIMessages } from './openai.js';

/**
 * Reads tau-bench results (`EnvRunResult`: `{ task_id, reward, info, traj, trial }`), one result or the whole results
 * list a run writes, into one workup per result:
 * - `traj`, the OpenAI chat messages of the run, is the trajectory (read by `fromOpenAIMessages`); a tool message
 *   that begins `Error:` is a tool error, as tau-bench's environment writes one (`Env.step` returns
 *   `f"Error: {e}"` for a tool that raised, and its tools return `"Error: ..."` for a request they refuse);
 * - `info.task.actions`, the task's expected actions, is the gold trajectory, each `{ name, kwargs }` one tool call;
 * - the final answer is the last text the agent sent the user (see `lastWordsToUser`);
 * - `reward` is the task outcome (`succeeded` when it is 1), `task_id` the task and `trial` the trial, in the meta.
 *   tau-bench counts trials from 0; needlework counts them from 1 (`meta.trial`, the `<task>/<n>` and `trial-<n>`
 *   folder layouts), so tau-bench's trial 0 is trial 1 in the meta and in the workup's name (`task-3-trial-1`).
 * A result that cannot be read is listed in `failed` at its file, line and column; the others are still imported.
 */
export function fromTauBenchResults(json: unknown, options: AdapterSource = {}): ImportResult {
  const file = options.file ?? '<tau-bench results>';
  const many = Array.isArray(json);
  const list = many ? json : [json];
  const workups: ImportedWorkup[] = [];
  const failed: Diagnostic[] = [];
  list.forEach((element, index) => {
    const path = many ? [index] : [];
    try {
      workups.push(readResult(element, path, file, options));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      for (const d of error.diagnostics) failed.push(d);
    }
  });
  if (workups.length === 0 && failed.length === 0) {
    failed.push({
      file,
      message: 'no results: expected a tau-bench result or a list of them, found an empty list',
    });
  }
  return { workups, failed, many };
}

function readResult(element: unknown, path: number[], file: string, options: AdapterSource): ImportedWorkup {
  const problems = new Problems(file, options.locate);
  if (!isRecord(element)) {
    problems.add(
      path,
      `expected a tau-bench result { task_id, reward, traj, info }, found ${describe(element)}`,
    );
    problems.throwIfAny();
  }
  const result = element as Record<string, unknown>;
  const taskId = result['task_id'];
  if (typeof taskId !== 'number' && typeof taskId !== 'string') {
    problems.add([...path, 'task_id'], `expected the task id (a number), found ${describe(taskId)}`);
  }
  if (!Array.isArray(result['traj'])) {
    problems.add(
      [...path, 'traj'],
      `expected the run's chat messages (a list), found ${describe(result['traj'])}`,
    );
  }
  const reward = result['reward'];
  if (reward !== undefined && (typeof reward !== 'number' || !Number.isFinite(reward))) {
    problems.add([...path, 'reward'], `expected a number, found ${describe(reward)}`);
  }
  problems.throwIfAny();
  // needlework's trial number: tau-bench's, counted from 1.
  const trial = typeof result['trial'] === 'number' ? result['trial'] + 1 : undefined;
  const name = `task-${String(taskId)}${trial !== undefined ? `-trial-${trial}` : ''}`;
  const trajectory = withinResult([...path, 'traj'], () =>
    fromOpenAIMessages(result['traj'], {
      file,
      ...(options.locate
        ? { locate: (p, key) => options.locate!([...path.map(String), 'traj', ...p], key) }
        : {}),
      taskId: name,
      toolErrorPrefix: 'Error:',
    }),
  );
  trajectory.metadata = { ...trajectory.metadata, source_format: 'tau-bench' };
  const words = lastWordsToUser(result['traj'] as unknown[]);
  if (words !== null && trajectory.final_answer !== words) {
    trajectory.final_answer = words;
    trajectory.succeeded = true;
  }

  const info = isRecord(result['info']) ? result['info'] : {};
  const task = isRecord(info['task']) ? info['task'] : undefined;
  const dropped: string[] = [];
  const meta: WorkupMeta = { task: String(taskId) };
  if (trial !== undefined) meta.trial = trial;
  if (typeof reward === 'number') meta.outcome = { succeeded: reward >= 1, reward };
  if (typeof info['error'] === 'string') {
    meta.outcome = { ...(meta.outcome ?? { succeeded: false }), succeeded: false, status: 'error' };
    meta['error'] = info['error'];
    dropped.push(`the run failed with an error: ${firstLine(info['error'])}`);
  }
  if (task && Array.isArray(task['outputs']) && task['outputs'].length > 0)
    meta['expected_outputs'] = task['outputs'];
  const gold = task ? goldOf(task, name, [...path, 'info', 'task'], problems) : undefined;
  problems.throwIfAny();
  if (!gold) dropped.push('no info.task.actions: no gold trajectory');
  return { name, trajectory, ...(gold ? { gold } : {}), meta, dropped };
}

/** The tools that end a tau-bench episode: its airline and retail environments' `terminate_tools`. */
const TERMINATE_TOOLS = new Set(['transfer_to_human_agents']);

/**
 * The last text the agent sent the user, which is the run's answer. tau-bench's agent sends the user the content of
 * an assistant message that asks for no tool (`message_to_action` makes it the `respond` action); a message that
 * calls a tool is that call, its text never sent. One exception: the run's last call ending the episode
 * (`transfer_to_human_agents`), whose text is the agent's last words before it hands the user over. A text message
 * followed only by tool calls is still what the user was last told. Null when the agent told the user nothing.
 */
function lastWordsToUser(messages: readonly unknown[]): string | null {
  let last = true;
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (!isRecord(message) || message['role'] !== 'assistant') continue;
    const text = typeof message['content'] === 'string' ? message['content'] : '';
    const calls = Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    const ends =
      last &&
      calls.some(
        (c) => isRecord(c) && isRecord(c['function']) && TERMINATE_TOOLS.has(String(c['function']['name'])),
      );
    last = false;
    if (text.trim() !== '' && (calls.length === 0 || ends)) return text;
  }
  return null;
}

/** The task's expected actions as a gold trajectory: one `tool_call` step per `{ name, kwargs }`. */
function goldOf(
  task: Record<string, unknown>,
  name: string,
  path: Array<string | number>,
  problems: Problems,
): Trajectory | undefined {
  const actions = task['actions'];
  if (!Array.isArray(actions)) return undefined;
  const steps = actions.flatMap((action, i) => {
    if (!isRecord(action) || typeof action['name'] !== 'string' || action['name'] === '') {
      problems.add([...path, 'actions', i], `expected an action { name, kwargs }, found ${describe(action)}`);
      return [];
    }
    const kwargs = isRecord(action['kwargs']) ? action['kwargs'] : {};
    return [
      makeStep({
        step_id: i + 1,
        step_type: 'tool_call',
        content: JSON.stringify(kwargs),
        tool_name: action['name'],
        tool_input: kwargs,
      }),
    ];
  });
  return makeTrajectory({
    task_id: name,
    task_input: typeof task['instruction'] === 'string' ? task['instruction'] : '',
    steps,
    metadata: { source_format: 'tau-bench', gold: true },
  });
}

/** Runs a reader of one part of a result, its problems' paths made whole (`traj[0].role` -> `[1].traj[0].role`). */
function withinResult<T>(prefix: Array<string | number>, read: () => T): T {
  try {
    return read();
  } catch (error) {
    if (!(error instanceof UserError)) throw error;
    const head = renderPath(prefix);
    throw new UserError(
      error.diagnostics.map((d) => {
        const message = d.message.startsWith('(top level)')
          ? `${head}${d.message.slice('(top level)'.length)}`
          : `${head}${d.message.startsWith('[') ? '' : '.'}${d.message}`;
        return { ...d, message };
      }),
    );
  }
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 120 ? `${line.slice(0, 120)}…` : line;
}
