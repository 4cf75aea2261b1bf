import { makeTrajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, describe, isRecord, Problems } from './common.js';
import type { ImportedWorkup } from './imported.js';
import { contentText, measuredCost, num, StepBuilder, usageTokens } from './steps.js';

export interface MiniSweAgentOptions extends AdapterSource {
  /** The run's task when the file names none (`instance_id`); the import command passes the file name. */
  taskId?: string;
}

/**
 * Reads a mini-swe-agent trajectory (`*.traj.json`, `trajectory_format: "mini-swe-agent-1.1"`, written by
 * `DefaultAgent.save` since 2.0: `{ info, messages, trajectory_format }`) into a workup.
 *
 * `messages` is the OpenAI chat the agent held, each with mini-swe-agent's own `extra`:
 * - an assistant message gives a `thought` (its text) and one `tool_call` per OpenAI `tool_calls` entry (the `bash`
 *   tool with `{ command }`); a model without tool calls (`litellm_textbased`) lists its commands in `extra.actions`,
 *   each a `bash` call; the tokens of `extra.response.usage` go on the message's first step;
 * - a `tool` message (or, for text-based models, a `user` message carrying `extra.returncode`) is the call's result.
 *   It is a failed call when `extra.exception_info` is set: that is what mini-swe-agent's environments write when the
 *   command could not run or finish (a timeout, `action was not executed`). A nonzero return code is the command's own
 *   output (`grep` finding nothing exits 1) and the model reads it as such: not an error;
 * - a `user` message with `extra.interrupt_type: "FormatError"` ran nothing: counted and said, not a step;
 * - the last message, role `exit`, ends the run: `extra.exit_status`, with `info.exit_status`, is the outcome
 *   (`Submitted`: unknown until the benchmark's tests run, `succeeded: null`; any other exit, such as
 *   `LimitsExceeded` or an exception's name, did not succeed) and `info.submission` (the patch) is the answer.
 * `info.model_stats` gives the cost (`instance_cost`, USD) and the API calls.
 */
export function fromMiniSweAgent(json: unknown, options: MiniSweAgentOptions = {}): ImportedWorkup {
  const problems = new Problems(options.file ?? '<mini-swe-agent trajectory>', options.locate);
  if (!isRecord(json) || !Array.isArray(json['messages'])) {
    problems.add(
      isRecord(json) ? ['messages'] : [],
      `expected a mini-swe-agent trajectory with a "messages" list, found ${describe(isRecord(json) ? json['messages'] : json)}`,
    );
    problems.throwIfAny();
  }
  const root = json as Record<string, unknown>;
  const messages = root['messages'] as unknown[];
  messages.forEach((m, i) => {
    if (!isRecord(m) || typeof m['role'] !== 'string')
      problems.add(['messages', i], `expected a message with a "role", found ${describe(m)}`);
  });
  problems.throwIfAny();
  const info = isRecord(root['info']) ? root['info'] : {};

  const b = new StepBuilder();
  let taskInput: string | undefined;
  let totalTokens = 0;
  let formatErrors = 0;
  let sourceCalls = 0;
  let exit: Record<string, unknown> | undefined;
  // Text-based models: the commands of the last assistant message, answered in order by user messages.
  let waiting: string[] = [];
  for (const [i, m] of (messages as Array<Record<string, unknown>>).entries()) {
    const extra = isRecord(m['extra']) ? m['extra'] : {};
    const role = m['role'];
    if (role === 'exit') {
      exit = m;
      continue;
    }
    if (role === 'user' && extra['returncode'] === undefined) {
      if (extra['interrupt_type'] === 'FormatError') formatErrors++;
      else taskInput ??= contentText(m['content']);
      continue;
    }
    if (role === 'assistant') {
      const tokens = usageTokens(isRecord(extra['response']) ? extra['response']['usage'] : undefined);
      const first = b.steps.length;
      b.thought(contentText(m['content']));
      const calls = Array.isArray(m['tool_calls']) ? m['tool_calls'].filter(isRecord) : [];
      waiting = [];
      if (calls.length > 0) {
        for (const call of calls) {
          const fn = isRecord(call['function']) ? call['function'] : {};
          const id = typeof call['id'] === 'string' ? call['id'] : undefined;
          b.call(typeof fn['name'] === 'string' ? fn['name'] : 'bash', fn['arguments'], id);
          sourceCalls++;
        }
      } else if (Array.isArray(extra['actions'])) {
        for (const [k, action] of extra['actions'].entries()) {
          if (!isRecord(action) || typeof action['command'] !== 'string') continue;
          const id = `message-${i}-action-${k}`;
          b.call('bash', { command: action['command'] }, id);
          waiting.push(id);
          sourceCalls++;
        }
      }
      if (tokens !== undefined) {
        totalTokens += tokens;
        const carrier = b.steps[first];
        if (carrier) carrier.tokens_used = tokens;
      }
      continue;
    }
    if (role === 'tool' || role === 'user') {
      const id =
        role === 'tool' && typeof m['tool_call_id'] === 'string' ? m['tool_call_id'] : waiting.shift();
      const failure = typeof extra['exception_info'] === 'string' ? extra['exception_info'].trim() : '';
      b.result(id, contentText(m['content']), {
        tool: 'bash',
        ...(failure !== '' ? { error: failure } : {}),
      });
    }
  }

  const exitExtra = exit && isRecord(exit['extra']) ? exit['extra'] : {};
  const status = str(info['exit_status']) || str(exitExtra['exit_status']);
  const submission = str(info['submission']) || str(exitExtra['submission']);
  const answer = submission.trim() !== '' ? submission : null;
  if (answer !== null) b.answer(answer);
  const task = str(root['instance_id']) || options.taskId || 'mini-swe-agent';
  const stats = isRecord(info['model_stats']) ? info['model_stats'] : {};
  const cost = measuredCost(stats['instance_cost']);
  const trajectory = makeTrajectory({
    task_id: task,
    task_input: taskInput ?? '',
    steps: b.steps,
    final_answer: answer,
    succeeded: answer !== null,
    total_tokens: totalTokens,
    metadata: {
      source_format: 'mini-swe-agent',
      ...(typeof info['mini_version'] === 'string' ? { mini_version: info['mini_version'] } : {}),
      ...(cost !== undefined ? { cost_usd: cost } : {}),
    },
  });

  const meta: WorkupMeta = { task };
  if (status !== '') meta.outcome = { succeeded: status === 'Submitted' ? null : false, status };
  if (cost !== undefined) meta['cost_usd'] = cost;
  const apiCalls = num(stats['api_calls']);
  if (apiCalls !== undefined) meta['api_calls'] = apiCalls;
  const dropped: string[] = [];
  if (!exit) dropped.push('no exit message: the run was saved before it ended');
  else if (status !== 'Submitted') {
    const why = str(exitExtra['exception_str']) || contentText(exit['content']);
    dropped.push(
      `the run ended with ${status || 'no exit status'}${why && why !== status ? `: ${firstLine(why)}` : ''}`,
    );
  }
  if (formatErrors > 0)
    dropped.push(`${formatErrors} model response(s) refused as format errors (no command ran)`);
  if (cost === undefined && stats['instance_cost'] !== undefined)
    dropped.push('info.model_stats.instance_cost is 0 (no price known for the model): cost not measured');
  return { name: task, trajectory, meta, dropped, sourceToolCalls: sourceCalls };
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function firstLine(text: string): string {
  const line = text.split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
