import type { Trajectory } from '../model/trajectory.js';
import { type AdapterSource, describe, isRecord, Problems } from './common.js';
import { trajectoryOfTrace } from './otel.js';
import { hexId, nanos } from './otel-sdk.js';
import type { Span } from './otlp.js';
import { measuredCost, num } from './steps.js';

/**
 * Reads an AgentOps trace export (the trace detail its API and dashboard export give: `{ trace, spans }`, each span
 * `{ span_id, parent_span_id, span_name, start_time, end_time, status_code, status_message, span_attributes,
 * resource_attributes, event_names, event_attributes, metrics }`, attributes nested by their dotted names) as an
 * OpenTelemetry trace, read by the same GenAI reading as the other OTel importers (`trajectoryOfTrace`).
 *
 * AgentOps names what a span is in its own attributes, after OpenLLMetry's (from which its instrumentation grew):
 * `agentops.span.kind` (`tool`, `llm`, `agent`, `workflow`, `session`; `task` and `workflow.step` are steps of a
 * workflow, not calls) and `agentops.entity.{name,input,output}`. Each is read as the OpenLLMetry attribute it
 * mirrors (`traceloop.span.kind`, `traceloop.entity.*`), and an `llm` span as a model call; an attribute a span also
 * writes under GenAI's names wins. A span's `metrics` give its tokens (`prompt_tokens`, `completion_tokens`) and cost
 * (`prompt_cost`, `completion_cost`, USD) on model and tool spans, where the attributes record none. A failed call is a
 * span with status `ERROR` (AgentOps records an exception on the span it raised in), as in any OTel trace.
 * `trace.total_cost` is not read as a cost when it is 0: AgentOps writes 0 for a model it has no price for.
 */
export function fromAgentOpsTrace(json: unknown, options: AdapterSource = {}): Trajectory {
  const problems = new Problems(options.file ?? '<agentops trace>', options.locate);
  if (!isRecord(json) || !Array.isArray(json['spans'])) {
    problems.add(
      isRecord(json) ? ['spans'] : [],
      `expected an AgentOps trace export with a "spans" list, found ${describe(isRecord(json) ? json['spans'] : json)}`,
    );
    problems.throwIfAny();
  }
  const root = json as Record<string, unknown>;
  const trace = isRecord(root['trace']) ? root['trace'] : {};
  const traceId = hexId(trace['trace_id'], 32);
  const spans: Span[] = [];
  (root['spans'] as unknown[]).forEach((raw, index) => {
    const path = ['spans', index];
    if (!isRecord(raw)) {
      problems.add(path, `expected a span object, found ${describe(raw)}`);
      return;
    }
    const spanId = hexId(raw['span_id'], 16);
    const start = nanos(raw['start_time']);
    if (spanId === undefined)
      problems.add(
        [...path, 'span_id'],
        `expected the span id (16 hex digits), found ${describe(raw['span_id'])}`,
      );
    if (start === undefined)
      problems.add(
        [...path, 'start_time'],
        `expected the start time (an ISO 8601 time), found ${describe(raw['start_time'])}`,
      );
    if (spanId === undefined || start === undefined) return;
    const attrs = asOtel(flatten(raw['span_attributes']), raw['metrics']);
    const events = (Array.isArray(raw['event_names']) ? raw['event_names'] : []).map((name, i) => ({
      name: String(name),
      attrs: flatten(Array.isArray(raw['event_attributes']) ? raw['event_attributes'][i] : undefined),
    }));
    const failed = String(raw['status_code']).toUpperCase() === 'ERROR';
    const exception = events.find((e) => e.name === 'exception');
    spans.push({
      traceId: traceId ?? '',
      spanId,
      parentSpanId: hexId(raw['parent_span_id'], 16),
      name: typeof raw['span_name'] === 'string' ? raw['span_name'] : '',
      start,
      end: nanos(raw['end_time']),
      attrs,
      events,
      error: failed || exception ? errorOf(raw, exception?.attrs) : undefined,
      resource: flatten(raw['resource_attributes']),
      order: index,
    });
  });
  if (traceId === undefined)
    problems.add(
      ['trace', 'trace_id'],
      `expected the trace id (32 hex digits), found ${describe(trace['trace_id'])}`,
    );
  problems.throwIfAny();
  if (spans.length === 0)
    problems.add(['spans'], 'no spans: expected an AgentOps trace with spans, found an empty list');
  problems.throwIfAny();
  const trajectory = trajectoryOfTrace(traceId!, spans);
  trajectory.metadata = { ...trajectory.metadata, source_format: 'agentops' };
  if (trajectory.metadata['cost_usd'] === undefined) {
    const total = measuredCost(trace['total_cost']);
    if (total !== undefined) trajectory.metadata['cost_usd'] = total;
  }
  return trajectory;
}

/** AgentOps's names read as the OpenLLMetry and GenAI attributes they mirror (see `fromAgentOpsTrace`). */
function asOtel(attrs: Record<string, unknown>, metrics: unknown): Record<string, unknown> {
  const out = { ...attrs };
  const kind =
    typeof attrs['agentops.span.kind'] === 'string' ? attrs['agentops.span.kind'].toLowerCase() : undefined;
  const mirror = (from: string, to: string) => {
    if (out[to] === undefined && attrs[from] !== undefined) out[to] = attrs[from];
  };
  for (const part of ['name', 'input', 'output'])
    mirror(`agentops.entity.${part}`, `traceloop.entity.${part}`);
  if (kind === 'tool') out['traceloop.span.kind'] ??= 'tool';
  else if (kind === 'agent' || kind === 'workflow' || kind === 'session')
    out['traceloop.span.kind'] ??= 'agent';
  else if (kind === 'llm') out['llm.request.type'] ??= 'chat';
  else if (kind !== undefined) out['traceloop.span.kind'] ??= kind;
  if ((kind === 'llm' || kind === 'tool') && isRecord(metrics)) {
    const prompt = num(metrics['prompt_tokens']);
    const completion = num(metrics['completion_tokens']);
    if (
      out['gen_ai.usage.prompt_tokens'] === undefined &&
      out['gen_ai.usage.input_tokens'] === undefined &&
      prompt !== undefined
    )
      out['gen_ai.usage.input_tokens'] = prompt;
    if (
      out['gen_ai.usage.completion_tokens'] === undefined &&
      out['gen_ai.usage.output_tokens'] === undefined &&
      completion !== undefined
    )
      out['gen_ai.usage.output_tokens'] = completion;
    const input = measuredCost(metrics['prompt_cost']);
    const output = measuredCost(metrics['completion_cost']);
    if (input !== undefined) out['gen_ai.usage.input_cost'] ??= input;
    if (output !== undefined) out['gen_ai.usage.output_cost'] ??= output;
  }
  return out;
}

/**
 * Nested attributes (`{ gen_ai: { completion: [{ content }] } }`, as AgentOps's API returns them) back to the dotted
 * names the span was written with (`gen_ai.completion.0.content`). Values that are not objects or lists stay whole.
 */
export function flatten(
  value: unknown,
  prefix = '',
  out: Record<string, unknown> = {},
): Record<string, unknown> {
  if (isRecord(value)) {
    for (const [key, v] of Object.entries(value)) flatten(v, prefix === '' ? key : `${prefix}.${key}`, out);
  } else if (Array.isArray(value) && value.some((v) => isRecord(v) || Array.isArray(v))) {
    for (const [i, v] of value.entries()) flatten(v, prefix === '' ? String(i) : `${prefix}.${i}`, out);
  } else if (prefix !== '') out[prefix] = value;
  return out;
}

function errorOf(raw: Record<string, unknown>, exception: Record<string, unknown> | undefined): string {
  const message = typeof raw['status_message'] === 'string' ? raw['status_message'] : '';
  if (message !== '') return message;
  const type = exception?.['exception.type'];
  const text = exception?.['exception.message'];
  if (typeof text === 'string' && text !== '') return typeof type === 'string' ? `${type}: ${text}` : text;
  return typeof type === 'string' ? type : 'error';
}
