import type { WorkupMeta } from '../model/workup.js';
import { type AdapterSource, isRecord } from './common.js';
import type { ImportedWorkup } from './imported.js';
import { fromOpenAIMessages } from './openai.js';
import { contentText, measuredCost, usageTokens } from './steps.js';

/**
 * A litellm completion log, as OpenHands writes one per model call with `log_completions` (`llm_completions/<id>/
 * <model>-<time>.json`: `{ messages, response, args, kwargs, timestamp, cost }`, and `fncall_messages` /
 * `fncall_response` when function calling was emulated): the chat sent, and the model's reply to it.
 */
export function isLitellmLog(json: unknown): json is Record<string, unknown> {
  return (
    isRecord(json) &&
    Array.isArray(json['messages']) &&
    isRecord(json['response']) &&
    Array.isArray(json['response']['choices'])
  );
}

/** The tools that end an agent's run: the text beside a call to one of them is the run's last word to the user. */
const FINISH_TOOLS = new Set(['finish']);

/**
 * Reads a litellm completion log as the OpenAI chat it holds, its `response` included as the run's last turn:
 * `choices[0].message` (its text and tool calls, such as OpenHands' `finish`) is appended to `messages`, so the call
 * it asks for is a `tool_call` step like any other. When that reply asks for no tool, or only for `finish`, it ends
 * the run and its text is the answer. Emulated function calling (`fncall_messages`, `fncall_response`) is read in its
 * function-calling form. `response.usage` gives the tokens of this one call, and `cost` (USD) its cost: a log holds
 * one call, so these are that call's figures, not the run's.
 */
export function fromLitellmLog(
  json: Record<string, unknown>,
  options: AdapterSource & { name: string },
): ImportedWorkup {
  const fncall = Array.isArray(json['fncall_messages']) && isRecord(json['fncall_response']);
  const messages = (fncall ? json['fncall_messages'] : json['messages']) as unknown[];
  const response = (fncall ? json['fncall_response'] : json['response']) as Record<string, unknown>;
  const choices = response['choices'] as unknown[];
  const reply = isRecord(choices[0]) && isRecord(choices[0]['message']) ? choices[0]['message'] : undefined;
  const trajectory = fromOpenAIMessages(reply ? [...messages, { ...reply, role: 'assistant' }] : messages, {
    ...(options.file !== undefined ? { file: options.file } : {}),
    // Problems are placed in the file: the reply is `response.choices[0].message`, the rest `messages[i]`.
    ...(options.locate
      ? {
          locate: (path: readonly string[], key?: string) =>
            Number(path[0]) === messages.length
              ? options.locate!(
                  [fncall ? 'fncall_response' : 'response', 'choices', '0', 'message', ...path.slice(1)],
                  key,
                )
              : options.locate!([fncall ? 'fncall_messages' : 'messages', ...path], key),
        }
      : {}),
    taskId: options.name,
  });
  const steps = trajectory.steps;
  const calls = reply && Array.isArray(reply['tool_calls']) ? reply['tool_calls'].filter(isRecord) : [];
  // The reply's steps are the last ones: its text (when it has any), then one step per call it asks for.
  const hasText = reply !== undefined && contentText(reply['content']).trim() !== '';
  const first = steps.length - calls.length - (hasText ? 1 : 0);
  const ends = calls.every((c) => isRecord(c['function']) && FINISH_TOOLS.has(String(c['function']['name'])));
  const said = hasText ? steps[first] : undefined;
  if (said && said.step_type === 'thought' && calls.length > 0 && ends) {
    // The text came with the `finish` call: it is the run's last word, its answer.
    said.step_type = 'answer';
    trajectory.final_answer = said.content;
    trajectory.succeeded = true;
  }
  const tokens = usageTokens(response['usage']);
  const carrier = reply ? steps[first] : undefined;
  if (tokens !== undefined) {
    trajectory.total_tokens = tokens;
    if (carrier) carrier.tokens_used = tokens;
  }
  const cost = measuredCost(json['cost']);
  trajectory.metadata = {
    ...trajectory.metadata,
    source_format: 'litellm',
    ...(typeof response['model'] === 'string' ? { model: response['model'] } : {}),
    ...(cost !== undefined ? { cost_usd: cost } : {}),
  };
  const meta: WorkupMeta = {};
  if (cost !== undefined) meta['cost_usd'] = cost;
  const dropped: string[] = [];
  if (!reply) dropped.push('response.choices[0] holds no message: the reply was not imported');
  if (cost === undefined && json['cost'] !== undefined)
    dropped.push('cost is 0 (no price known for the model): cost not measured');
  return { name: trajectory.task_id || options.name, trajectory, meta, dropped };
}
