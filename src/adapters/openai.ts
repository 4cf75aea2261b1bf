import type { Trajectory, TrajectoryStep } from '../model/trajectory.js';
import { makeStep, makeTrajectory } from '../model/trajectory.js';
import { type AdapterSource, describe, isRecord, Problems, toolInput, toolOutput } from './common.js';

export interface OpenAIOptions extends AdapterSource {
  /** The trajectory's `task_id` (default `openai-chat`); the import command passes the file's name. */
  taskId?: string;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
type Role = (typeof ROLES)[number];

/** One tool call an assistant message asked for, normalised from `tool_calls[]` or the legacy `function_call`. */
interface RequestedCall {
  name: string;
  arguments: unknown;
  id?: string;
}

/** A message after its shape was checked: the text of its content and the tool calls it asked for. */
interface Checked {
  role: Role;
  text: string;
  calls: RequestedCall[];
  /** `tool_call_id` of a `tool` message; `name` of a legacy `function` message. */
  answers?: string;
  name?: string;
}

/**
 * Reads an OpenAI Chat Completions message log (an array of messages, or `{ messages: [...] }`) into a seed-002
 * `Trajectory`:
 * - the first `user` message is the `task_input`; `system`/`developer` messages make no steps;
 * - an `assistant` message with `tool_calls` gives a `thought` (its text, when it has any) and one `tool_call` step
 *   per call (`tool_name` = `function.name`, `tool_input` = the parsed `arguments`, JSON that is not an object and
 *   text that is not JSON wrapped as `{ input: raw }` as seed 002's `TrajectoryLogger` wraps non-dict input,
 *   `call_id` = the call's `id`);
 * - a `tool` message gives an `observation` linked by `tool_call_id`, with the calling tool's name;
 * - the legacy `function_call` / `function` role are read the same way, linked by function name;
 * - the last assistant text with no tool calls, when nothing but user/system messages follow it, is the `answer`
 *   (and `final_answer`); earlier ones are thoughts. `succeeded` is whether there is a final answer.
 * Content given as an array of parts has its text parts (and refusals) joined with newlines; images and audio make
 * no text. Every shape problem is reported at once, each naming the message index and what was expected.
 */
export function fromOpenAIMessages(messages: unknown, options: OpenAIOptions = {}): Trajectory {
  const problems = new Problems(options.file ?? '<openai messages>', options.locate);
  const { list, prefix } = unwrap(messages, problems);
  const checked: Array<Checked | undefined> = list.map((message, index) =>
    checkMessage(message, [...prefix, index], problems),
  );
  problems.throwIfAny();
  const valid = checked as Checked[];

  const answerAt = finalAnswerIndex(valid);
  const steps: TrajectoryStep[] = [];
  const callNames = new Map<string, string>();
  const pendingFunctions: string[] = [];
  let taskInput: string | undefined;
  const add = (step: Omit<Parameters<typeof makeStep>[0], 'step_id'>) =>
    steps.push(makeStep({ ...step, step_id: steps.length + 1 }));

  valid.forEach((message, index) => {
    switch (message.role) {
      case 'system':
      case 'developer':
        return;
      case 'user':
        taskInput ??= message.text;
        return;
      case 'assistant': {
        if (index === answerAt) {
          add({ step_type: 'answer', content: message.text });
          return;
        }
        if (message.text.trim() !== '') add({ step_type: 'thought', content: message.text });
        for (const call of message.calls) {
          const input = toolInput(call.arguments);
          if (call.id !== undefined) callNames.set(call.id, call.name);
          else pendingFunctions.push(call.name);
          add({
            step_type: 'tool_call',
            content: typeof call.arguments === 'string' ? call.arguments : JSON.stringify(input),
            tool_name: call.name,
            tool_input: input,
            ...(call.id !== undefined ? { call_id: call.id } : {}),
          });
        }
        return;
      }
      case 'tool':
        add({
          step_type: 'observation',
          content: message.text,
          tool_name: callNames.get(message.answers!) ?? null,
          tool_output: toolOutput(message.text),
          call_id: message.answers!,
        });
        return;
      case 'function': {
        const at = pendingFunctions.indexOf(message.name!);
        if (at !== -1) pendingFunctions.splice(at, 1);
        add({
          step_type: 'observation',
          content: message.text,
          tool_name: message.name!,
          tool_output: toolOutput(message.text),
        });
        return;
      }
    }
  });

  const finalAnswer = answerAt === -1 ? null : valid[answerAt]!.text;
  return makeTrajectory({
    task_id: options.taskId ?? 'openai-chat',
    task_input: taskInput ?? '',
    steps,
    final_answer: finalAnswer,
    succeeded: finalAnswer !== null,
    metadata: { source_format: 'openai' },
  });
}

function unwrap(input: unknown, problems: Problems): { list: unknown[]; prefix: Array<string | number> } {
  if (Array.isArray(input)) return { list: input, prefix: [] };
  if (isRecord(input) && Array.isArray(input['messages']))
    return { list: input['messages'], prefix: ['messages'] };
  problems.add(
    [],
    `expected an array of chat messages or an object with a "messages" array, found ${describe(input)}`,
  );
  problems.throwIfAny();
  return { list: [], prefix: [] };
}

function checkMessage(
  message: unknown,
  path: Array<string | number>,
  problems: Problems,
): Checked | undefined {
  if (!isRecord(message)) {
    problems.add(path, `expected a message object with a "role", found ${describe(message)}`);
    return undefined;
  }
  const role = message['role'];
  if (typeof role !== 'string' || !(ROLES as readonly string[]).includes(role)) {
    problems.add([...path, 'role'], `expected one of ${ROLES.join(', ')}, found ${describe(role)}`);
    return undefined;
  }
  const text = contentText(message['content'], [...path, 'content'], problems);
  const checked: Checked = { role: role as Role, text: text ?? '', calls: [] };
  if (role === 'assistant') {
    const refusal = message['refusal'];
    if (typeof refusal === 'string' && checked.text === '') checked.text = refusal;
    checked.calls = toolCalls(message, path, problems);
  }
  if (role === 'tool') {
    const id = message['tool_call_id'];
    if (typeof id !== 'string' || id === '') {
      problems.add(
        [...path, 'tool_call_id'],
        `expected the id of the tool call this message answers, found ${describe(id)}`,
      );
      return undefined;
    }
    checked.answers = id;
  }
  if (role === 'function') {
    const name = message['name'];
    if (typeof name !== 'string' || name === '') {
      problems.add(
        [...path, 'name'],
        `expected the name of the function that returned, found ${describe(name)}`,
      );
      return undefined;
    }
    checked.name = name;
  }
  return checked;
}

/** The text of a message's `content`: a string, `null`, or an array of parts whose text parts are joined. */
function contentText(content: unknown, path: Array<string | number>, problems: Problems): string | undefined {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    problems.add(path, `expected a string, null or an array of content parts, found ${describe(content)}`);
    return undefined;
  }
  const texts: string[] = [];
  content.forEach((part, index) => {
    if (typeof part === 'string') {
      texts.push(part);
      return;
    }
    if (!isRecord(part) || typeof part['type'] !== 'string') {
      problems.add([...path, index], `expected a content part with a "type", found ${describe(part)}`);
      return;
    }
    const type = part['type'];
    if (type === 'text' || type === 'input_text' || type === 'output_text') {
      if (typeof part['text'] !== 'string') {
        problems.add([...path, index, 'text'], `expected a string, found ${describe(part['text'])}`);
        return;
      }
      texts.push(part['text']);
    } else if (type === 'refusal' && typeof part['refusal'] === 'string') {
      texts.push(part['refusal']);
    }
  });
  return texts.join('\n');
}

function toolCalls(
  message: Record<string, unknown>,
  path: Array<string | number>,
  problems: Problems,
): RequestedCall[] {
  const calls: RequestedCall[] = [];
  const list = message['tool_calls'];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list)) {
      problems.add([...path, 'tool_calls'], `expected an array of tool calls, found ${describe(list)}`);
    } else {
      list.forEach((call, index) => {
        const at = [...path, 'tool_calls', index];
        if (!isRecord(call)) {
          problems.add(at, `expected a tool call object, found ${describe(call)}`);
          return;
        }
        const id = call['id'];
        if (typeof id !== 'string' || id === '') {
          problems.add([...at, 'id'], `expected the tool call's id (a string), found ${describe(id)}`);
          return;
        }
        // Custom tools (`type: "custom"`) carry free text as `custom.input`; function tools carry JSON arguments.
        const body = call['type'] === 'custom' ? call['custom'] : call['function'];
        const field = call['type'] === 'custom' ? 'custom' : 'function';
        if (!isRecord(body) || typeof body['name'] !== 'string' || body['name'] === '') {
          problems.add(
            [...at, field, ...(isRecord(body) ? ['name'] : [])],
            isRecord(body)
              ? `expected the tool's name (a string), found ${describe(body['name'])}`
              : `expected an object with the tool's "name", found ${describe(body)}`,
          );
          return;
        }
        calls.push({
          id,
          name: body['name'],
          arguments: field === 'custom' ? body['input'] : body['arguments'],
        });
      });
    }
  }
  const legacy = message['function_call'];
  if (legacy !== undefined && legacy !== null) {
    if (!isRecord(legacy) || typeof legacy['name'] !== 'string' || legacy['name'] === '') {
      problems.add(
        [...path, 'function_call'],
        `expected { name, arguments } with the function's name, found ${describe(legacy)}`,
      );
    } else {
      calls.push({ name: legacy['name'], arguments: legacy['arguments'] });
    }
  }
  return calls;
}

/**
 * The message that holds the final answer: the last assistant message, when it asks for no tool calls, has text,
 * and no tool or function result follows it. -1 when the run ended on a tool call (it did not finish).
 */
function finalAnswerIndex(messages: readonly Checked[]): number {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i]!;
    if (message.role === 'tool' || message.role === 'function') return -1;
    if (message.role !== 'assistant') continue;
    return message.calls.length === 0 && message.text.trim() !== '' ? i : -1;
  }
  return -1;
}
