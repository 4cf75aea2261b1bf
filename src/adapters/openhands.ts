import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import { makeTrajectory } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, describe, isRecord, Problems } from './common.js';
import type { ImportedWorkup, ImportResult } from './imported.js';
import { measuredCost, num, StepBuilder } from './steps.js';

/**
 * Reads OpenHands evaluation output (`output.jsonl`: one `EvalOutput` a line, `{ instance_id, instruction, history,
 * metrics, error, test_result, instance }`) into one workup per line, named by its `instance_id`:
 * - `history` is the run's event stream. An agent action with `tool_call_metadata` (`run`, `read`, `edit`, `think`,
 *   `browse`, `finish`, ...) is one `tool_call` of the function it names (`execute_bash`, `str_replace_editor`,
 *   `finish`), with the arguments the model wrote (from the model response the metadata keeps, else the action's
 *   `args`); its `thought` comes first as a thought. The observation whose `cause` is that action is its result;
 * - a failed call is an `ErrorObservation` (`observation: "error"`): OpenHands writes one when an action failed or a
 *   tool call could not become an action (an unknown parameter, a malformed call), and the model is shown it as an
 *   error. One with no `cause` answers no recorded action and is kept as a result of its own. A command that ran and
 *   exited nonzero is a `run` observation, the command's output: not an error;
 * - agent `message` actions are thoughts; the answer is `test_result.git_patch` (the patch the run produced, as
 *   SWE-bench scores it), else the `finish` action's `final_thought`, else the agent's last message;
 * - the outcome is `test_result.report.resolved` when the line has been evaluated; else a line with an `error`
 *   (`Agent reached maximum iteration ...`) did not succeed, and one without is unknown until the tests run;
 * - `metrics.accumulated_token_usage` gives the tokens and `metrics.accumulated_cost` the cost (USD; a zero with no
 *   `costs` is a model with no known price: not measured).
 * A line that cannot be read is listed in `failed`; the others are still imported.
 */
export function fromOpenHandsOutput(json: unknown, options: AdapterSource = {}): ImportResult {
  const file = options.file ?? '<openhands output>';
  const lines = Array.isArray(json) ? json : [json];
  const workups: ImportedWorkup[] = [];
  const failed: Diagnostic[] = [];
  lines.forEach((line, index) => {
    try {
      workups.push(readLine(line, Array.isArray(json) ? [index] : [], new Problems(file, options.locate)));
    } catch (error) {
      if (!(error instanceof UserError)) throw error;
      failed.push(...error.diagnostics);
    }
  });
  return { workups, failed, many: lines.length > 1 };
}

const SKIPPED_ACTIONS = new Set(['system', 'recall']);

function readLine(line: unknown, path: number[], problems: Problems): ImportedWorkup {
  if (!isRecord(line) || !Array.isArray(line['history'])) {
    problems.add(
      isRecord(line) ? [...path, 'history'] : path,
      `expected an OpenHands evaluation output with a "history" list, found ${describe(isRecord(line) ? line['history'] : line)}`,
    );
    problems.throwIfAny();
  }
  const out = line as Record<string, unknown>;
  const history = out['history'] as unknown[];
  history.forEach((e, i) => {
    if (!isRecord(e)) problems.add([...path, 'history', i], `expected an event object, found ${describe(e)}`);
  });
  problems.throwIfAny();

  const b = new StepBuilder();
  // Action event id -> the call id its result is linked by.
  const callOf = new Map<number, string>();
  let lastMessage: string | undefined;
  let finalThought: string | undefined;
  let sourceCalls = 0;
  let internal = 0;
  for (const e of history as Array<Record<string, unknown>>) {
    const action = typeof e['action'] === 'string' ? e['action'] : undefined;
    const observation = typeof e['observation'] === 'string' ? e['observation'] : undefined;
    const args = isRecord(e['args']) ? e['args'] : {};
    const timestamp = typeof e['timestamp'] === 'string' ? e['timestamp'] : null;
    const meta = isRecord(e['tool_call_metadata']) ? e['tool_call_metadata'] : undefined;
    if (action !== undefined) {
      if (SKIPPED_ACTIONS.has(action) || e['source'] !== 'agent') {
        if (action !== 'system' && e['source'] !== 'user') internal++;
        continue;
      }
      const thought = typeof args['thought'] === 'string' ? args['thought'] : '';
      if (!meta) {
        // An agent message (no tool): what it said to the user.
        const text = typeof args['content'] === 'string' ? args['content'] : thought || str(e['message']);
        b.thought(text, { timestamp });
        if (text.trim() !== '') lastMessage = text;
        continue;
      }
      b.thought(thought, { timestamp });
      const name = str(meta['function_name']) || action;
      const id = str(meta['tool_call_id']) || `event-${String(e['id'])}`;
      b.call(name, modelArguments(meta, id) ?? withoutThought(args), id, { timestamp });
      sourceCalls++;
      if (typeof e['id'] === 'number') callOf.set(e['id'], id);
      if (action === 'finish' && typeof args['final_thought'] === 'string')
        finalThought = args['final_thought'];
      continue;
    }
    if (observation !== undefined) {
      if (observation === 'recall' || observation === 'agent_state_changed' || observation === 'null') {
        internal++;
        continue;
      }
      const cause = typeof e['cause'] === 'number' ? callOf.get(e['cause']) : undefined;
      const content = typeof e['content'] === 'string' ? e['content'] : str(e['message']);
      b.result(cause, content, {
        timestamp,
        ...(observation === 'error' ? { error: firstLine(content) || 'error' } : {}),
        // A result that answers no recorded action: its tool is unknown (an error observation of a malformed call).
        ...(cause === undefined && observation !== 'error' ? { tool: observation } : {}),
      });
    }
  }

  const testResult = isRecord(out['test_result']) ? out['test_result'] : {};
  const patch = str(testResult['git_patch']);
  const answer = patch.trim() !== '' ? patch : finalThought?.trim() ? finalThought : (lastMessage ?? null);
  if (answer !== null) b.answer(answer);
  const task = str(out['instance_id']) || 'openhands';
  const metrics = isRecord(out['metrics']) ? out['metrics'] : {};
  const usage = isRecord(metrics['accumulated_token_usage']) ? metrics['accumulated_token_usage'] : {};
  const tokens = (num(usage['prompt_tokens']) ?? 0) + (num(usage['completion_tokens']) ?? 0);
  const cost = measuredCost(metrics['accumulated_cost']);
  const error = str(out['error']);
  const report = isRecord(testResult['report']) ? testResult['report'] : undefined;
  const meta: WorkupMeta = { task };
  if (report && typeof report['resolved'] === 'boolean')
    meta.outcome = { succeeded: report['resolved'], status: report['resolved'] ? 'resolved' : 'unresolved' };
  else if (error !== '') meta.outcome = { succeeded: false, status: 'error' };
  else meta.outcome = { succeeded: null, status: finalThought !== undefined ? 'finished' : 'stopped' };
  if (error !== '') meta['error'] = error;
  if (patch.trim() !== '') meta['submission'] = patch;
  if (cost !== undefined) meta['cost_usd'] = cost;
  const trajectory = makeTrajectory({
    task_id: task,
    task_input: str(out['instruction']),
    steps: b.steps,
    final_answer: answer,
    succeeded: answer !== null,
    total_tokens: tokens,
    metadata: { source_format: 'openhands', ...(cost !== undefined ? { cost_usd: cost } : {}) },
  });
  const dropped: string[] = [];
  if (error !== '') dropped.push(`the run ended with an error: ${firstLine(error)}`);
  if (internal > 0)
    dropped.push(`${internal} event(s) of OpenHands itself (recall, state changes) made no step`);
  if (cost === undefined && metrics['accumulated_cost'] !== undefined)
    dropped.push(
      'metrics.accumulated_cost is 0 with no costs listed (no price known for the model): cost not measured',
    );
  return { name: task, trajectory, meta, dropped, sourceToolCalls: sourceCalls };
}

/** The arguments the model wrote for call `id`, from the model response the tool call metadata keeps. */
function modelArguments(meta: Record<string, unknown>, id: string): unknown {
  const response = isRecord(meta['model_response']) ? meta['model_response'] : undefined;
  const choices = response && Array.isArray(response['choices']) ? response['choices'] : [];
  for (const choice of choices) {
    const message = isRecord(choice) && isRecord(choice['message']) ? choice['message'] : undefined;
    const calls = message && Array.isArray(message['tool_calls']) ? message['tool_calls'] : [];
    for (const call of calls) {
      if (isRecord(call) && call['id'] === id && isRecord(call['function']))
        return call['function']['arguments'];
    }
  }
  return undefined;
}

function withoutThought(args: Record<string, unknown>): Record<string, unknown> {
  const { thought: _, ...rest } = args;
  return rest;
}

function str(value: unknown): string {
  return typeof value === 'string' ? value : '';
}

function firstLine(text: string): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > 160 ? `${line.slice(0, 160)}…` : line;
}
