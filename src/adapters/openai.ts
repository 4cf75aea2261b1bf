import type { SourceToolCall, StepSource } from '../model/deferred-steps.js';
import { deferredTrajectory } from '../model/deferred-steps.js';
import type { MessageOutline, StepType, Trajectory, TrajectoryStep } from '../model/trajectory.js';
import { type AdapterSource, describe, isRecord, Problems, toolInput, toolOutput } from './common.js';

export interface OpenAIOptions extends AdapterSource {
  /** The trajectory's `task_id` (default `openai-chat`); the import command passes the file's name. */
  taskId?: string;
  /**
   * How the log's environment writes a failed tool call into the tool message, when it has a convention: tau-bench's
   * returns `Error: ...` (see `fromTauBenchResults`). A tool message that begins with it is a tool error: its
   * observation's `error` holds the rest of the message. Plain OpenAI logs have no such convention.
   */
  toolErrorPrefix?: string;
}

const ROLES = ['system', 'developer', 'user', 'assistant', 'tool', 'function'] as const;
type Role = (typeof ROLES)[number];

/** `ROLES.includes(role)`, as a switch: this runs on every message. */
function isRole(role: string): role is Role {
  switch (role) {
    case 'system':
    case 'developer':
    case 'user':
    case 'assistant':
    case 'tool':
    case 'function':
      return true;
    default:
      return false;
  }
}

/**
 * One tool call an assistant message asked for, normalised from `tool_calls[]` or the legacy `function_call`. Its
 * arguments are parsed on first need (the step's `tool_input`, or a trajectory match that compares them), once.
 */
class RequestedCall implements SourceToolCall {
  readonly text: string | undefined;
  /** The step's `content`: the arguments as written, or as compact JSON when they were not text. */
  readonly content: string;
  #args: Record<string, unknown> | undefined;

  constructor(
    readonly tool: string,
    private readonly raw: unknown,
    /** Absent on a legacy `function_call`. */
    readonly id: string | undefined,
  ) {
    if (typeof raw === 'string') {
      this.text = raw;
      this.content = raw;
      this.#args = undefined;
    } else {
      // Arguments given as data need no parsing: taken now, as written now.
      this.text = undefined;
      this.#args = toolInput(raw);
      this.content = JSON.stringify(this.#args);
    }
  }

  args(): Record<string, unknown> {
    this.#args ??= toolInput(this.raw);
    return this.#args;
  }
}

/** A message after its shape was checked: the text of its content and the tool calls it asked for. */
interface Checked {
  role: Role;
  text: string;
  /** `null` when the message has no `tool_calls` (nor `function_call`) field: see `MessageOutline`. */
  calls: RequestedCall[] | null;
  /** `tool_call_id` of a `tool` message; `name` of a legacy `function` message. */
  answers: string | undefined;
  name: string | undefined;
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
 *
 * The trajectory also keeps the message list's outline (`messages`: each message's role and how many tool calls it
 * carried, `null` for none), which agentevals' strict trajectory match compares and the steps alone cannot show:
 * messages that make no step (system, user, an assistant message with neither text nor calls) and which calls were
 * asked for together. See `matchTrajectory`.
 *
 * The steps are built on their first read (see `deferredTrajectory`: every reader sees the same values), so reading a
 * log costs no JSON parsing of tool arguments and results until something looks at them; `matchTrajectory` parses
 * only the arguments it compares. Shape problems are still all reported here, at once.
 */
export function fromOpenAIMessages(messages: unknown, options: OpenAIOptions = {}): Trajectory {
  const problems = new Problems(options.file ?? '<openai messages>', options.locate);
  const { list, prefix } = unwrap(messages, problems);
  const valid: Checked[] = [];
  for (let index = 0; index < list.length; index++) {
    const checked = checkMessage(list[index], prefix, index, problems);
    if (checked !== undefined) valid.push(checked);
  }
  problems.throwIfAny();

  const answerAt = finalAnswerIndex(valid);
  const outline: MessageOutline[] = [];
  const calls: RequestedCall[] = [];
  let taskInput: string | undefined;
  for (let index = 0; index < valid.length; index++) {
    const message = valid[index] as Checked;
    outline.push({ role: message.role, tool_calls: message.calls === null ? null : message.calls.length });
    if (message.role === 'user') taskInput ??= message.text;
    // The answer message asks for no calls (see finalAnswerIndex).
    else if (message.calls !== null) for (const call of message.calls) calls.push(call);
  }

  const finalAnswer = answerAt === -1 ? null : (valid[answerAt] as Checked).text;
  // The steps are built on first read: reading a log costs no JSON parsing of arguments and results until then.
  return deferredTrajectory(
    {
      task_id: options.taskId ?? 'openai-chat',
      task_input: taskInput ?? '',
      final_answer: finalAnswer,
      succeeded: finalAnswer !== null,
      total_tokens: 0,
      total_latency_ms: 0,
      metadata: { source_format: 'openai' },
      messages: outline,
    },
    new OpenAISteps(valid, answerAt, calls, options.toolErrorPrefix),
  );
}

/** The steps of a checked message log, built when a deferred trajectory's `steps` are first read. */
class OpenAISteps implements StepSource {
  constructor(
    private readonly valid: readonly Checked[],
    private readonly answerAt: number,
    readonly calls: readonly RequestedCall[],
    private readonly errorPrefix: string | undefined,
  ) {}

  build(): TrajectoryStep[] {
    const steps: TrajectoryStep[] = [];
    const callNames = new Map<string, string>();
    for (let index = 0; index < this.valid.length; index++) {
      const message = this.valid[index] as Checked;
      switch (message.role) {
        case 'system':
        case 'developer':
        case 'user':
          break;
        case 'assistant': {
          if (index === this.answerAt) {
            steps.push(step(steps.length + 1, 'answer', message.text, null, null, null, undefined));
            break;
          }
          if (message.text.trim() !== '') {
            steps.push(step(steps.length + 1, 'thought', message.text, null, null, null, undefined));
          }
          if (message.calls === null) break;
          for (const call of message.calls) {
            if (call.id !== undefined) callNames.set(call.id, call.tool);
            steps.push(
              step(steps.length + 1, 'tool_call', call.content, call.tool, call.args(), null, call.id),
            );
          }
          break;
        }
        case 'tool': {
          const id = message.answers as string;
          const tool = callNames.get(id) ?? null;
          const made = step(
            steps.length + 1,
            'observation',
            message.text,
            tool,
            null,
            toolOutput(message.text),
            id,
          );
          if (this.errorPrefix !== undefined && message.text.startsWith(this.errorPrefix)) {
            made.error = message.text.slice(this.errorPrefix.length).trim() || message.text;
          }
          steps.push(made);
          break;
        }
        case 'function': {
          const name = message.name as string;
          steps.push(
            step(
              steps.length + 1,
              'observation',
              message.text,
              name,
              null,
              toolOutput(message.text),
              undefined,
            ),
          );
          break;
        }
      }
    }
    return steps;
  }
}

/**
 * A step with the seed's defaults for the fields a chat log does not record. Built here rather than through
 * `makeStep` so every step has one literal shape and this loop's property accesses stay monomorphic.
 */
function step(
  step_id: number,
  step_type: StepType,
  content: string,
  tool_name: string | null,
  tool_input: Record<string, unknown> | null,
  tool_output: unknown,
  call_id: string | undefined,
): TrajectoryStep {
  const made: TrajectoryStep = {
    step_id,
    step_type,
    content,
    tool_name,
    tool_input,
    tool_output,
    timestamp: null,
    latency_ms: 0,
    tokens_used: 0,
    error: null,
  };
  if (call_id !== undefined) made.call_id = call_id;
  return made;
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

type Path = Array<string | number>;

/** The path of message `index` (built only when a problem is reported: the happy path allocates none). */
function at(prefix: Path, index: number, ...rest: Path): Path {
  return [...prefix, index, ...rest];
}

function checkMessage(
  message: unknown,
  prefix: Path,
  index: number,
  problems: Problems,
): Checked | undefined {
  if (!isRecord(message)) {
    problems.add(at(prefix, index), `expected a message object with a "role", found ${describe(message)}`);
    return undefined;
  }
  const role = message['role'];
  if (typeof role !== 'string' || !isRole(role)) {
    problems.add(at(prefix, index, 'role'), `expected one of ${ROLES.join(', ')}, found ${describe(role)}`);
    return undefined;
  }
  const text = contentText(message['content'], prefix, index, problems);
  // Every field written at once, so every checked message has one shape.
  const checked: Checked = {
    role: role as Role,
    text: text ?? '',
    calls: null,
    answers: undefined,
    name: undefined,
  };
  if (role === 'assistant') {
    const refusal = message['refusal'];
    if (typeof refusal === 'string' && checked.text === '') checked.text = refusal;
    checked.calls = toolCalls(message, prefix, index, problems);
  }
  if (role === 'tool') {
    const id = message['tool_call_id'];
    if (typeof id !== 'string' || id === '') {
      problems.add(
        at(prefix, index, 'tool_call_id'),
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
        at(prefix, index, 'name'),
        `expected the name of the function that returned, found ${describe(name)}`,
      );
      return undefined;
    }
    checked.name = name;
  }
  return checked;
}

/** The text of a message's `content`: a string, `null`, or an array of parts whose text parts are joined. */
function contentText(content: unknown, prefix: Path, index: number, problems: Problems): string | undefined {
  if (content === undefined || content === null) return '';
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) {
    problems.add(
      at(prefix, index, 'content'),
      `expected a string, null or an array of content parts, found ${describe(content)}`,
    );
    return undefined;
  }
  const texts: string[] = [];
  content.forEach((part, partIndex) => {
    if (typeof part === 'string') {
      texts.push(part);
      return;
    }
    if (!isRecord(part) || typeof part['type'] !== 'string') {
      problems.add(
        at(prefix, index, 'content', partIndex),
        `expected a content part with a "type", found ${describe(part)}`,
      );
      return;
    }
    const type = part['type'];
    if (type === 'text' || type === 'input_text' || type === 'output_text') {
      if (typeof part['text'] !== 'string') {
        problems.add(
          at(prefix, index, 'content', partIndex, 'text'),
          `expected a string, found ${describe(part['text'])}`,
        );
        return;
      }
      texts.push(part['text']);
    } else if (type === 'refusal' && typeof part['refusal'] === 'string') {
      texts.push(part['refusal']);
    }
  });
  return texts.join('\n');
}

/**
 * The calls an assistant message asks for, from `tool_calls` and the legacy `function_call`; `null` when it has
 * neither field (or both are `null`), which agentevals' strict match tells apart from an empty `tool_calls: []`.
 */
function toolCalls(
  message: Record<string, unknown>,
  prefix: Path,
  index: number,
  problems: Problems,
): RequestedCall[] | null {
  const list = message['tool_calls'];
  const legacy = message['function_call'];
  if ((list === undefined || list === null) && (legacy === undefined || legacy === null)) return null;
  const calls: RequestedCall[] = [];
  if (list !== undefined && list !== null) {
    if (!Array.isArray(list)) {
      problems.add(
        at(prefix, index, 'tool_calls'),
        `expected an array of tool calls, found ${describe(list)}`,
      );
    } else {
      for (let c = 0; c < list.length; c++) {
        const call: unknown = list[c];
        if (!isRecord(call)) {
          problems.add(
            at(prefix, index, 'tool_calls', c),
            `expected a tool call object, found ${describe(call)}`,
          );
          continue;
        }
        const id = call['id'];
        if (typeof id !== 'string' || id === '') {
          problems.add(
            at(prefix, index, 'tool_calls', c, 'id'),
            `expected the tool call's id (a string), found ${describe(id)}`,
          );
          continue;
        }
        // Custom tools (`type: "custom"`) carry free text as `custom.input`; function tools carry JSON arguments.
        const custom = call['type'] === 'custom';
        const body = custom ? call['custom'] : call['function'];
        const field = custom ? 'custom' : 'function';
        if (!isRecord(body) || typeof body['name'] !== 'string' || body['name'] === '') {
          problems.add(
            at(prefix, index, 'tool_calls', c, field, ...(isRecord(body) ? ['name'] : [])),
            isRecord(body)
              ? `expected the tool's name (a string), found ${describe(body['name'])}`
              : `expected an object with the tool's "name", found ${describe(body)}`,
          );
          continue;
        }
        calls.push(new RequestedCall(body['name'], custom ? body['input'] : body['arguments'], id));
      }
    }
  }
  if (legacy !== undefined && legacy !== null) {
    if (!isRecord(legacy) || typeof legacy['name'] !== 'string' || legacy['name'] === '') {
      problems.add(
        at(prefix, index, 'function_call'),
        `expected { name, arguments } with the function's name, found ${describe(legacy)}`,
      );
    } else {
      calls.push(new RequestedCall(legacy['name'], legacy['arguments'], undefined));
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
    return (message.calls === null || message.calls.length === 0) && message.text.trim() !== '' ? i : -1;
  }
  return -1;
}
