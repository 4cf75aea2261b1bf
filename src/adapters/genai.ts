import { stringifyJson } from '../parse/json.js';
import { asText, isRecord, tryParseJson } from './common.js';
import type { Span, SpanEvent } from './otlp.js';
import { idOf } from './otlp.js';

/**
 * What a span means under the OpenTelemetry GenAI semantic conventions and the agent-SDK exports of them: whether it
 * is a tool, model or agent span, its tool name, call id, arguments and result, its tokens, and the messages it was
 * given and answered, in each convention's attribute and event forms.
 */

/**
 * The span conventions an OTel adapter reads, as listed in a trajectory's `metadata.conventions`:
 * - `gen_ai`: the OpenTelemetry GenAI semantic conventions (`gen_ai.operation.name`, `gen_ai.tool.*`,
 *   `gen_ai.input.messages`/`gen_ai.output.messages`, the older `gen_ai.prompt`/`gen_ai.completion` and their events);
 * - `openinference`: Arize OpenInference (`openinference.span.kind`, `input.value`, `output.value`, `llm.*`);
 * - `traceloop`: OpenLLMetry / Traceloop (`traceloop.span.kind`, `traceloop.entity.*`, flattened `gen_ai.prompt.N.*`);
 * - `vercel_ai`: the Vercel AI SDK's telemetry (`ai.operationId`, `ai.toolCall.*`, `ai.response.*`, `ai.usage.*`).
 */
export type OtelConvention = 'gen_ai' | 'openinference' | 'traceloop' | 'vercel_ai';

export type Kind = 'tool' | 'llm' | 'agent' | 'other';

/** A message as any of the conventions' message formats describe it: its text and the tool calls it asked for. */
export interface Message {
  role: string;
  text: string;
  calls: Array<{ id?: string; name: string; arguments: unknown }>;
}

export function str(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

export function first(attrs: Record<string, unknown>, keys: readonly string[]): unknown {
  for (const key of keys) if (attrs[key] !== undefined && attrs[key] !== null) return attrs[key];
  return undefined;
}

function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+(\.\d+)?$/.test(value)) return Number(value);
  return undefined;
}

/** What a span is, and which convention said so. The GenAI semantic conventions win when several are present. */
export function classify(span: Span): { kind: Kind; convention?: OtelConvention } {
  const a = span.attrs;
  const op = str(a['gen_ai.operation.name']);
  if (op === 'execute_tool') return { kind: 'tool', convention: 'gen_ai' };
  // `call_llm` is any-agent's (and tinyagent's) name for a model call.
  if (op === 'chat' || op === 'text_completion' || op === 'generate_content' || op === 'call_llm')
    return { kind: 'llm', convention: 'gen_ai' };
  if (op === 'invoke_agent' || op === 'invoke_workflow') return { kind: 'agent', convention: 'gen_ai' };
  const oi = str(a['openinference.span.kind'])?.toUpperCase();
  if (oi === 'TOOL') return { kind: 'tool', convention: 'openinference' };
  if (oi === 'LLM') return { kind: 'llm', convention: 'openinference' };
  if (oi === 'AGENT') return { kind: 'agent', convention: 'openinference' };
  if (oi !== undefined) return { kind: 'other', convention: 'openinference' };
  const tl = str(a['traceloop.span.kind'])?.toLowerCase();
  if (tl === 'tool') return { kind: 'tool', convention: 'traceloop' };
  if (tl === 'agent' || tl === 'workflow') return { kind: 'agent', convention: 'traceloop' };
  if (tl !== undefined) return { kind: 'other', convention: 'traceloop' };
  if (a['llm.request.type'] !== undefined) return { kind: 'llm', convention: 'traceloop' };
  const vercel = str(a['ai.operationId']) ?? (span.name.startsWith('ai.') ? span.name : undefined);
  if (vercel !== undefined) {
    if (vercel === 'ai.toolCall') return { kind: 'tool', convention: 'vercel_ai' };
    if (/\.do(Generate|Stream)$/.test(vercel)) return { kind: 'llm', convention: 'vercel_ai' };
    if (/^ai\.(generate|stream)(Text|Object)$/.test(vercel))
      return { kind: 'agent', convention: 'vercel_ai' };
    return { kind: 'other', convention: 'vercel_ai' };
  }
  // Pydantic AI through Logfire (before it wrote `gen_ai.operation.name`): a "running tool" span names its tool.
  if (str(a['gen_ai.tool.name']) !== undefined) return { kind: 'tool', convention: 'gen_ai' };
  if (op !== undefined) return { kind: 'other', convention: 'gen_ai' };
  return { kind: 'other' };
}

export function toolName(span: Span): string {
  return (
    str(first(span.attrs, ['gen_ai.tool.name', 'tool.name', 'ai.toolCall.name', 'traceloop.entity.name'])) ??
    span.name.replace(/^execute_tool\s+/, '')
  );
}

/**
 * Where producers write a tool span's arguments, newest convention first: the GenAI semantic conventions
 * (`gen_ai.tool.call.arguments`), any-agent (`gen_ai.tool.args`), Pydantic AI / Logfire (`tool_arguments`), the
 * Vercel AI SDK, OpenInference (`tool_call.function.arguments`, then `input.value`), OpenLLMetry
 * (`traceloop.entity.input`), and last `tool.parameters`, which OpenInference defines as the tool's parameter schema
 * but several producers fill with the arguments (a JSON Schema found there is not taken as arguments).
 */
const TOOL_ARGUMENTS = [
  'gen_ai.tool.call.arguments',
  'gen_ai.tool.args',
  'tool_arguments',
  'ai.toolCall.args',
  'ai.toolCall.input',
  'tool_call.function.arguments',
  'input.value',
  'traceloop.entity.input',
  'tool.parameters',
];

/**
 * Tool arguments, or `undefined` when the span records none. A wrapped call record (`{ args, kwargs }`, as
 * OpenLLMetry and OpenInference's smolagents instrumentation write the Python call) is reduced to the arguments the
 * tool was really given.
 */
export function toolArguments(span: Span): unknown {
  for (const key of TOOL_ARGUMENTS) {
    const value = span.attrs[key];
    if (value === undefined || value === null) continue;
    const parsed = typeof value === 'string' ? tryParseJson(value) : value;
    if (key === 'tool.parameters' && isRecord(parsed) && isRecord(parsed['properties'])) continue;
    const call = callArguments(parsed);
    return call ?? value;
  }
  return undefined;
}

/** The arguments inside a Python call record `{ args, kwargs }` (other keys are the wrapper's flags), if it is one. */
function callArguments(value: unknown): unknown {
  if (!isRecord(value) || !('args' in value || 'kwargs' in value)) return undefined;
  if (!Object.keys(value).every((k) => k === 'args' || k === 'kwargs' || k === 'sanitize_inputs_outputs'))
    return undefined;
  const args = Array.isArray(value['args']) ? value['args'] : [];
  const kwargs = isRecord(value['kwargs']) ? value['kwargs'] : {};
  if (args.length === 0) return kwargs;
  if (args.length === 1 && isRecord(args[0]) && Object.keys(kwargs).length === 0) return args[0];
  return undefined;
}

export function toolResult(span: Span): unknown {
  return first(span.attrs, [
    'gen_ai.tool.call.result',
    'gen_ai.output',
    'tool_response',
    'ai.toolCall.result',
    'ai.toolCall.output',
    'output.value',
    'traceloop.entity.output',
  ]);
}

export function toolCallId(span: Span): string | undefined {
  return idOf(first(span.attrs, ['gen_ai.tool.call.id', 'ai.toolCall.id', 'tool_call.id']));
}

const INPUT_TOKENS = [
  'gen_ai.usage.input_tokens',
  'gen_ai.usage.prompt_tokens',
  'llm.token_count.prompt',
  'ai.usage.inputTokens',
  'ai.usage.promptTokens',
];
const OUTPUT_TOKENS = [
  'gen_ai.usage.output_tokens',
  'gen_ai.usage.completion_tokens',
  'llm.token_count.completion',
  'ai.usage.outputTokens',
  'ai.usage.completionTokens',
];
const TOTAL_TOKENS = [
  'gen_ai.usage.total_tokens',
  'llm.usage.total_tokens',
  'llm.token_count.total',
  'ai.usage.totalTokens',
];

export function tokens(span: Span): number {
  const input = num(first(span.attrs, INPUT_TOKENS));
  const output = num(first(span.attrs, OUTPUT_TOKENS));
  if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
  return num(first(span.attrs, TOTAL_TOKENS)) ?? 0;
}

/**
 * What a span's model call cost in USD, as agent frameworks record it beside the GenAI usage counts: any-agent (and
 * tinyagent) write `gen_ai.usage.input_cost` and `gen_ai.usage.output_cost` on each model span, and its `AgentTrace`
 * totals their sum; a total (`gen_ai.usage.total_cost`, `gen_ai.usage.cost`) is read when the parts are absent.
 * `undefined` when the span records no cost (not 0: a run with no cost recorded is not a free run).
 */
export function cost(span: Span): number | undefined {
  const input = num(span.attrs['gen_ai.usage.input_cost']);
  const output = num(span.attrs['gen_ai.usage.output_cost']);
  if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
  return num(first(span.attrs, ['gen_ai.usage.total_cost', 'gen_ai.usage.cost']));
}

// ---------------------------------------------------------------------------------------------------------------
// Messages, in every format the conventions use

/**
 * One message in any of the shapes found in spans: GenAI `{ role, parts: [{ type: 'text' | 'tool_call' |
 * 'tool_call_response' }] }`, OpenAI `{ role, content, tool_calls }`, a `gen_ai.choice` `{ message }`, the Vercel AI
 * SDK's `{ role, content: [{ type: 'text' | 'tool-call' }] }`.
 */
function toMessage(raw: unknown): Message | undefined {
  if (typeof raw === 'string') return { role: 'assistant', text: raw, calls: [] };
  if (!isRecord(raw)) return undefined;
  if (isRecord(raw['message'])) return toMessage({ role: raw['role'], ...raw['message'] });
  const message: Message = { role: str(raw['role']) ?? 'assistant', text: '', calls: [] };
  const texts: string[] = [];
  const parts = Array.isArray(raw['parts'])
    ? raw['parts']
    : Array.isArray(raw['content'])
      ? raw['content']
      : [];
  if (typeof raw['content'] === 'string') texts.push(raw['content']);
  for (const part of parts) {
    if (typeof part === 'string') {
      texts.push(part);
      continue;
    }
    if (!isRecord(part)) continue;
    const type = part['type'];
    if (type === 'text' || type === undefined) {
      const text = str(part['content']) ?? str(part['text']);
      if (text !== undefined) texts.push(text);
    } else if (type === 'tool_call' || type === 'tool-call' || type === 'tool_use') {
      const name = str(part['name']) ?? str(part['toolName']);
      if (name === undefined) continue;
      const id = idOf(part['id'] ?? part['toolCallId']);
      message.calls.push({
        ...(id !== undefined ? { id } : {}),
        name,
        arguments: part['arguments'] ?? part['args'] ?? part['input'],
      });
    }
  }
  if (Array.isArray(raw['tool_calls'])) {
    for (const call of raw['tool_calls']) {
      if (!isRecord(call)) continue;
      const fn = isRecord(call['function']) ? call['function'] : call;
      const name = str(fn['name']);
      if (name === undefined) continue;
      const id = idOf(call['id']);
      message.calls.push({ ...(id !== undefined ? { id } : {}), name, arguments: fn['arguments'] });
    }
  }
  message.text = texts.join('\n');
  return message;
}

function toMessages(raw: unknown): Message[] | undefined {
  const value = typeof raw === 'string' ? tryParseJson(raw) : raw;
  if (Array.isArray(value)) return value.map(toMessage).filter((m): m is Message => m !== undefined);
  if (isRecord(value)) {
    if (Array.isArray(value['messages'])) return toMessages(value['messages']);
    const one = toMessage(value);
    return one ? [one] : undefined;
  }
  return undefined;
}

/**
 * Groups flattened list attributes (`gen_ai.prompt.0.role`, `llm.output_messages.1.message.content`) by index:
 * `flatList(attrs, 'gen_ai.prompt')` → `[{ role, content }, ...]`.
 */
function flatList(attrs: Record<string, unknown>, prefix: string): Array<Record<string, unknown>> {
  const items: Array<Record<string, unknown>> = [];
  const head = `${prefix}.`;
  for (const [key, value] of Object.entries(attrs)) {
    if (!key.startsWith(head)) continue;
    const match = /^(\d+)\.(.+)$/.exec(key.slice(head.length));
    if (!match) continue;
    const index = Number(match[1]);
    items[index] ??= {};
    items[index]![match[2]!] = value;
  }
  return items.filter((item) => item !== undefined);
}

/** OpenInference `llm.input_messages` / `llm.output_messages`, flattened. */
function openInferenceMessages(attrs: Record<string, unknown>, prefix: string): Message[] {
  return flatList(attrs, prefix).map((item) => ({
    role: str(item['message.role']) ?? 'assistant',
    text: asText(item['message.content'] ?? ''),
    calls: flatList(item, 'message.tool_calls').flatMap((call) => {
      const name = str(call['tool_call.function.name']);
      const id = idOf(call['tool_call.id']);
      return name === undefined
        ? []
        : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['tool_call.function.arguments'] }];
    }),
  }));
}

/**
 * OpenLLMetry's flattened messages: `gen_ai.prompt.N.*` / `gen_ai.completion.N.*` (and `llm.prompts.N.*` /
 * `llm.completions.N.*` before it moved to the `gen_ai` namespace), with tool calls as `tool_calls.M.*` or the legacy
 * `function_call.*`.
 */
function traceloopMessages(attrs: Record<string, unknown>, prefix: string): Message[] {
  return flatList(attrs, prefix).map((item) => {
    const calls = flatList(item, 'tool_calls').flatMap((call) => {
      const name = str(call['name']);
      const id = idOf(call['id']);
      return name === undefined
        ? []
        : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['arguments'] }];
    });
    const legacy = str(item['function_call.name']);
    if (legacy !== undefined) calls.push({ name: legacy, arguments: item['function_call.arguments'] });
    return { role: str(item['role']) ?? 'assistant', text: asText(item['content'] ?? ''), calls };
  });
}

/** The first of OpenLLMetry's flattened message lists that has any messages. */
function traceloopAny(attrs: Record<string, unknown>, prefixes: readonly string[]): Message[] {
  for (const prefix of prefixes) {
    const messages = traceloopMessages(attrs, prefix);
    if (messages.length > 0) return messages;
  }
  return [];
}

/**
 * any-agent's model output `gen_ai.output`: text, or (with `gen_ai.output.type` `json`) the list of tool calls the
 * model asked for, each `{ "tool.name", "tool.args" }`.
 */
function anyAgentOutput(attrs: Record<string, unknown>): Message[] | undefined {
  const output = attrs['gen_ai.output'];
  if (output === undefined || output === null) return undefined;
  const parsed = typeof output === 'string' ? tryParseJson(output) : output;
  if (Array.isArray(parsed) && parsed.length > 0 && parsed.every((c) => isRecord(c) && 'tool.name' in c)) {
    const calls = (parsed as Array<Record<string, unknown>>).flatMap((c) => {
      const name = str(c['tool.name']);
      return name === undefined ? [] : [{ name, arguments: c['tool.args'] }];
    });
    return [{ role: 'assistant', text: '', calls }];
  }
  return [{ role: 'assistant', text: asText(output), calls: [] }];
}

/**
 * Pydantic AI's model spans as Logfire wrote them before the `gen_ai.*.messages` attributes: one `events` attribute
 * holding the GenAI message events as a JSON list, each with its `event.name`.
 */
function logfireEvents(attrs: Record<string, unknown>, side: 'input' | 'output'): Message[] {
  const raw = attrs['events'];
  const list = typeof raw === 'string' ? tryParseJson(raw) : raw;
  if (!Array.isArray(list)) return [];
  const messages: Message[] = [];
  for (const event of list) {
    if (!isRecord(event)) continue;
    const name = str(event['event.name']);
    const isOutput = name === 'gen_ai.choice';
    if (name === undefined || isOutput !== (side === 'output')) continue;
    const message = toMessage(isOutput ? event : { role: name.slice(7, -8), ...event });
    if (message) messages.push(message);
  }
  return messages;
}

const INPUT_EVENTS = [
  'gen_ai.system.message',
  'gen_ai.user.message',
  'gen_ai.assistant.message',
  'gen_ai.tool.message',
];

/** The messages a model span was given, from whichever attribute or event its convention uses. */
export function inputMessages(span: Span): Message[] {
  const a = span.attrs;
  const direct = first(a, ['gen_ai.input.messages', 'gen_ai.prompt', 'ai.prompt.messages']);
  if (direct !== undefined) return toMessages(direct) ?? [];
  const oi = openInferenceMessages(a, 'llm.input_messages');
  if (oi.length > 0) return oi;
  const tl = traceloopAny(a, ['gen_ai.prompt', 'llm.prompts']);
  if (tl.length > 0) return tl;
  const logfire = logfireEvents(a, 'input');
  if (logfire.length > 0) return logfire;
  const messages: Message[] = [];
  for (const event of span.events) {
    if (
      event.name === 'gen_ai.content.prompt' ||
      event.name === 'gen_ai.client.inference.operation.details'
    ) {
      for (const m of toMessages(first(event.attrs, ['gen_ai.prompt', 'gen_ai.input.messages'])) ?? [])
        messages.push(m);
    } else if (INPUT_EVENTS.includes(event.name)) {
      const role = event.name.slice('gen_ai.'.length, -'.message'.length);
      const body = eventBody(event);
      const message = toMessage(isRecord(body) ? { role, ...body } : { role, content: body });
      if (message) messages.push(message);
    }
  }
  return messages;
}

/** What a model span answered: its output messages, in whichever attribute or event its convention uses. */
export function outputMessages(span: Span): Message[] {
  const a = span.attrs;
  const direct = first(a, ['gen_ai.output.messages', 'gen_ai.completion']);
  if (direct !== undefined) return toMessages(direct) ?? [];
  const oi = openInferenceMessages(a, 'llm.output_messages');
  if (oi.length > 0) return oi;
  const tl = traceloopAny(a, ['gen_ai.completion', 'llm.completions']);
  if (tl.length > 0) return tl;
  const anyAgent = anyAgentOutput(a);
  if (anyAgent !== undefined) return anyAgent;
  const logfire = logfireEvents(a, 'output');
  if (logfire.length > 0) return logfire;
  const vercelText = first(a, ['ai.response.text', 'ai.result.text']);
  const vercelCalls = first(a, ['ai.response.toolCalls', 'ai.result.toolCalls']);
  if (vercelText !== undefined || vercelCalls !== undefined) {
    const calls = typeof vercelCalls === 'string' ? tryParseJson(vercelCalls) : vercelCalls;
    return [
      {
        role: 'assistant',
        text: asText(vercelText ?? ''),
        calls: (Array.isArray(calls) ? calls : []).flatMap((call) => {
          if (!isRecord(call)) return [];
          const name = str(call['toolName']) ?? str(call['name']);
          const id = idOf(call['toolCallId'] ?? call['id']);
          return name === undefined
            ? []
            : [{ ...(id !== undefined ? { id } : {}), name, arguments: call['args'] ?? call['input'] }];
        }),
      },
    ];
  }
  const messages: Message[] = [];
  for (const event of span.events) {
    if (
      event.name === 'gen_ai.content.completion' ||
      event.name === 'gen_ai.client.inference.operation.details'
    ) {
      messages.push(
        ...(toMessages(first(event.attrs, ['gen_ai.completion', 'gen_ai.output.messages'])) ?? []),
      );
    } else if (event.name === 'gen_ai.choice') {
      const message = toMessage(eventBody(event));
      if (message) messages.push(message);
    }
  }
  if (messages.length > 0) return messages;
  const output = a['output.value'];
  if (typeof output === 'string' && tryParseJson(output) === undefined) {
    return [{ role: 'assistant', text: output, calls: [] }];
  }
  return [];
}

/** The body of a GenAI message event: `gen_ai.event.content` (JSON), a `message`/`content` attribute, or all of them. */
function eventBody(event: SpanEvent): unknown {
  const content = event.attrs['gen_ai.event.content'];
  if (typeof content === 'string') return tryParseJson(content) ?? content;
  if (event.attrs['message'] !== undefined) return { message: event.attrs['message'] };
  return event.attrs;
}

// ---------------------------------------------------------------------------------------------------------------
// Run-level input and output

const TEXT_KEYS = [
  'input',
  'query',
  'question',
  'prompt',
  'task',
  'output',
  'answer',
  'result',
  'text',
  'content',
];

/** Readable text of a loosely shaped input or output value (`input.value`, `traceloop.entity.*`, `ai.prompt`). */
function looseText(raw: unknown, pick: 'first-user' | 'last-assistant'): string | undefined {
  if (raw === undefined || raw === null) return undefined;
  if (typeof raw === 'string') {
    const parsed = tryParseJson(raw);
    if (parsed === undefined) return raw;
    return typeof parsed === 'string' ? parsed : looseText(parsed, pick);
  }
  if (typeof raw === 'number' || typeof raw === 'boolean') return String(raw);
  if (Array.isArray(raw)) {
    const messages = toMessages(raw) ?? [];
    return pick === 'first-user' ? firstUserText(messages) : lastAssistantText(messages);
  }
  if (!isRecord(raw)) return undefined;
  if (Array.isArray(raw['messages'])) return looseText(raw['messages'], pick);
  for (const key of TEXT_KEYS) if (typeof raw[key] === 'string') return raw[key] as string;
  if (isRecord(raw['kwargs']) || Array.isArray(raw['args'])) {
    const args = Array.isArray(raw['args']) ? raw['args'] : [];
    for (const value of [...args, ...Object.values(isRecord(raw['kwargs']) ? raw['kwargs'] : {})]) {
      const text = looseText(value, pick);
      if (text !== undefined) return text;
    }
  }
  return stringifyJson(raw);
}

export function firstUserText(messages: readonly Message[]): string | undefined {
  return messages.find((m) => m.role === 'user' && m.text !== '')?.text;
}

function lastAssistantText(messages: readonly Message[]): string | undefined {
  return messages.findLast((m) => m.role === 'assistant' && m.text !== '')?.text;
}

export function runInput(span: Span): string | undefined {
  const a = span.attrs;
  if (a['gen_ai.input.messages'] !== undefined)
    return firstUserText(toMessages(a['gen_ai.input.messages']) ?? []);
  return looseText(first(a, ['input.value', 'traceloop.entity.input', 'ai.prompt']), 'first-user');
}

export function runOutput(span: Span): string | undefined {
  const a = span.attrs;
  if (a['gen_ai.output.messages'] !== undefined) {
    return lastAssistantText(toMessages(a['gen_ai.output.messages']) ?? []);
  }
  return looseText(
    first(a, ['output.value', 'traceloop.entity.output', 'ai.response.text', 'ai.result.text']),
    'last-assistant',
  );
}
