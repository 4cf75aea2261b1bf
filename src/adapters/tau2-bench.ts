import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import { makeStep, makeTrajectory, type Trajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, describe, isRecord, Problems } from './common.js';
import type { ImportedWorkup, ImportResult } from './imported.js';
import { contentText, measuredCost, num, StepBuilder, usageTokens } from './steps.js';

/**
 * Reads tau2-bench results (`Results`, as `tau2 run` saves them: `{ timestamp, info, tasks, simulations }`) into one
 * workup per simulation (`SimulationRun`), named `task-<task_id>-trial-<trial>`:
 * - `messages` holds the agent's (`assistant`), the simulated user's (`user`) and the tools' (`tool`) messages. An
 *   assistant message gives a `thought` (its text) and one `tool_call` per `tool_calls` entry (`{ id, name,
 *   arguments }`, arguments already an object); a tool message is the result of the next unanswered call, in order
 *   (tau2's orchestrator answers a message's calls in order, and its ids repeat within a run). A tool message with
 *   `error: true` is a failed call: that is how tau2's environment marks a tool that raised (`Environment.get_response`
 *   sets it and writes `Error: ...` as the content);
 * - calls the simulated user makes (`requestor: "user"`, telecom's user tools) are not the agent's: counted and said;
 * - the answer is the last text the agent sent the user;
 * - `reward_info.reward` is the outcome (`succeeded` when it is 1), `task_id` the task, `trial` the trial (tau2 counts
 *   from 0; `meta.trial` and the folder name count from 1, as `WorkupMeta.trial` does: tau2's trial 0 is
 *   `task-9-trial-1`, `meta.trial: 1`), `termination_reason` the status;
 * - the task's `evaluation_criteria.actions` (from `tasks`) is the gold trajectory;
 * - `agent_cost` and the agent messages' `usage` give the cost and tokens (the user simulator's are not the agent's).
 * A simulation that cannot be read is listed in `failed` at its place; the others are still imported.
 */
export function fromTau2Results(json: unknown, options: AdapterSource = {}): ImportResult {
  const file = options.file ?? '<tau2-bench results>';
  const problems = new Problems(file, options.locate);
  if (!isRecord(json) || !Array.isArray(json['simulations'])) {
    problems.add(
      isRecord(json) ? ['simulations'] : [],
      `expected tau2-bench results with a "simulations" list, found ${describe(isRecord(json) ? json['simulations'] : json)}`,
    );
    problems.throwIfAny();
  }
  const root = json as Record<string, unknown>;
  const tasks = new Map<string, Record<string, unknown>>();
  if (Array.isArray(root['tasks']))
    for (const t of root['tasks']) if (isRecord(t) && t['id'] !== undefined) tasks.set(String(t['id']), t);
  const workups: ImportedWorkup[] = [];
  const failed: Diagnostic[] = [];
  (root['simulations'] as unknown[]).forEach((sim, index) => {
    try {
      workups.push(readSimulation(sim, index, tasks, new Problems(file, options.locate)));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failed.push(...error.diagnostics);
    }
  });
  if (workups.length === 0 && failed.length === 0)
    failed.push({
      file,
      message: 'no simulations: expected tau2-bench results, found an empty "simulations" list',
    });
  return { workups, failed, many: true };
}

function readSimulation(
  sim: unknown,
  index: number,
  tasks: ReadonlyMap<string, Record<string, unknown>>,
  problems: Problems,
): ImportedWorkup {
  const path = ['simulations', index];
  if (!isRecord(sim)) {
    problems.add(path, `expected a simulation { task_id, messages, reward_info }, found ${describe(sim)}`);
    problems.throwIfAny();
  }
  const s = sim as Record<string, unknown>;
  const taskId = s['task_id'];
  if (typeof taskId !== 'string' && typeof taskId !== 'number')
    problems.add([...path, 'task_id'], `expected the task id, found ${describe(taskId)}`);
  if (!Array.isArray(s['messages']))
    problems.add(
      [...path, 'messages'],
      `expected the run's messages (a list), found ${describe(s['messages'])}`,
    );
  else
    s['messages'].forEach((m, i) => {
      if (!isRecord(m) || typeof m['role'] !== 'string')
        problems.add([...path, 'messages', i], `expected a message with a "role", found ${describe(m)}`);
    });
  problems.throwIfAny();
  const trial = num(s['trial']);
  // tau2 counts trials from 0; `meta.trial` counts from 1, and the folder name says the same number.
  const trialNumber = trial !== undefined ? trial + 1 : undefined;
  const name = `task-${String(taskId)}${trialNumber !== undefined ? `-trial-${trialNumber}` : ''}`;

  const b = new StepBuilder();
  const queue: string[] = [];
  const seen = new Map<string, number>();
  let userCalls = 0;
  let userResults = 0;
  let tokens = 0;
  let messageCost = 0;
  let lastText: string | undefined;
  let taskInput: string | undefined;
  let sourceCalls = 0;
  for (const m of s['messages'] as Array<Record<string, unknown>>) {
    const role = m['role'];
    const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isRecord) : [];
    if (role === 'user') {
      taskInput ??= contentText(m['content']);
      userCalls += calls.length;
      continue;
    }
    if (role === 'assistant') {
      const first = b.steps.length;
      const text = contentText(m['content']);
      b.thought(text, { timestamp: str(m['timestamp']) ?? null });
      if (text.trim() !== '') lastText = text;
      for (const call of calls) {
        const tool = typeof call['name'] === 'string' ? call['name'] : '?';
        // tau2's ids repeat within a run (a model numbers its calls per response): each call gets a unique one.
        const raw = typeof call['id'] === 'string' && call['id'] !== '' ? call['id'] : tool;
        const n = (seen.get(raw) ?? 0) + 1;
        seen.set(raw, n);
        const id = n === 1 ? raw : `${raw}#${n}`;
        b.call(tool, call['arguments'], id, { timestamp: str(m['timestamp']) ?? null });
        queue.push(id);
        sourceCalls++;
      }
      const used = usageTokens(m['usage']);
      if (used !== undefined) {
        tokens += used;
        const carrier = b.steps[first];
        if (carrier) carrier.tokens_used = used;
      }
      messageCost += num(m['cost']) ?? 0;
      continue;
    }
    if (role === 'tool') {
      if (m['requestor'] === 'user') {
        userResults++;
        continue;
      }
      const content = contentText(m['content']);
      b.result(queue.shift(), content, {
        timestamp: str(m['timestamp']) ?? null,
        ...(m['error'] === true ? { error: errorText(content) } : {}),
      });
    }
  }
  if (lastText !== undefined) {
    const last = b.steps.findLast((st) => st.step_type === 'thought' && st.content === lastText);
    if (last) last.step_type = 'answer';
  }

  const reward = isRecord(s['reward_info']) ? num(s['reward_info']['reward']) : undefined;
  const cost = measuredCost(s['agent_cost']) ?? measuredCost(messageCost);
  const status = str(s['termination_reason']);
  const meta: WorkupMeta = { task: String(taskId) };
  if (trialNumber !== undefined) meta.trial = trialNumber;
  if (reward !== undefined || status !== undefined)
    meta.outcome = {
      succeeded: reward === undefined ? null : reward >= 1,
      ...(reward !== undefined ? { reward } : {}),
      ...(status !== undefined ? { status } : {}),
    };
  if (cost !== undefined) meta['cost_usd'] = cost;
  const duration = num(s['duration']);
  const trajectory = makeTrajectory({
    task_id: name,
    task_input: taskInput ?? '',
    steps: b.steps,
    final_answer: lastText ?? null,
    succeeded: lastText !== undefined,
    total_tokens: tokens,
    total_latency_ms: duration !== undefined ? duration * 1000 : 0,
    metadata: { source_format: 'tau2-bench', ...(cost !== undefined ? { cost_usd: cost } : {}) },
  });
  const dropped: string[] = [];
  if (userCalls > 0 || userResults > 0)
    dropped.push(
      `${userCalls} tool call(s) of the simulated user (not the agent's) and their ${userResults} result(s)`,
    );
  const task = tasks.get(String(taskId));
  const gold = task ? goldOf(task, name) : undefined;
  if (!gold)
    dropped.push(`no evaluation_criteria.actions for task ${String(taskId)} in "tasks": no gold trajectory`);
  return { name, trajectory, ...(gold ? { gold } : {}), meta, dropped, sourceToolCalls: sourceCalls };
}

/** The task's expected actions of the agent as a gold trajectory: one `tool_call` step per `{ name, arguments }`. */
function goldOf(task: Record<string, unknown>, name: string): Trajectory | undefined {
  const criteria = isRecord(task['evaluation_criteria']) ? task['evaluation_criteria'] : undefined;
  const actions = criteria && Array.isArray(criteria['actions']) ? criteria['actions'] : undefined;
  if (!actions) return undefined;
  const steps = actions
    .filter((a): a is Record<string, unknown> => isRecord(a) && typeof a['name'] === 'string')
    .filter((a) => (a['requestor'] ?? 'assistant') === 'assistant')
    .map((a, i) => {
      const args = isRecord(a['arguments']) ? a['arguments'] : {};
      return makeStep({
        step_id: i + 1,
        step_type: 'tool_call',
        content: JSON.stringify(args),
        tool_name: a['name'] as string,
        tool_input: args,
      });
    });
  return makeTrajectory({ task_id: name, steps, metadata: { source_format: 'tau2-bench', gold: true } });
}

/** A failed call's error: tau2 writes `Error: <message>`; the message is the error. */
function errorText(content: string): string {
  const text = content.startsWith('Error:') ? content.slice('Error:'.length).trim() : content.trim();
  return text === '' ? 'error' : text;
}

function str(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
