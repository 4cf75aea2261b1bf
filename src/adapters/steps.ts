import { makeStep, type TrajectoryStep } from '../model/trajectory.js';
import { isRecord, toolInput, toolOutput } from './common.js';

/** What a step may carry beyond its type and text. */
type Extra = Partial<Pick<TrajectoryStep, 'timestamp' | 'latency_ms' | 'tokens_used' | 'error'>>;

/**
 * Builds a trajectory's steps in order for the importers of chat-shaped runs (mini-swe-agent, tau2-bench, Inspect AI,
 * OpenHands): numbers them, remembers which tool each call id named so the result that answers it carries the tool's
 * name, and parses arguments and results the one way every importer does (`toolInput`, `toolOutput`).
 */
export class StepBuilder {
  readonly steps: TrajectoryStep[] = [];
  private readonly names = new Map<string, string>();

  thought(text: string, extra: Extra = {}): TrajectoryStep | undefined {
    if (text.trim() === '') return undefined;
    return this.push({ step_type: 'thought', content: text, ...extra });
  }

  answer(text: string, extra: Extra = {}): TrajectoryStep {
    return this.push({ step_type: 'answer', content: text, ...extra });
  }

  /** A tool call: `args` as the source wrote them (JSON text or data); `id` links the result. */
  call(name: string, args: unknown, id: string | undefined, extra: Extra = {}): TrajectoryStep {
    const input = toolInput(args);
    if (id !== undefined) this.names.set(id, name);
    return this.push({
      step_type: 'tool_call',
      content: typeof args === 'string' ? args : JSON.stringify(input),
      tool_name: name,
      tool_input: input,
      ...(id !== undefined ? { call_id: id } : {}),
      ...extra,
    });
  }

  /** The result of the call `id` (its tool's name taken from the call, else `tool`); `error` marks a failed call. */
  result(id: string | undefined, content: string, extra: Extra & { tool?: string } = {}): TrajectoryStep {
    const { tool, ...rest } = extra;
    return this.push({
      step_type: 'observation',
      content,
      tool_name: (id !== undefined ? this.names.get(id) : undefined) ?? tool ?? null,
      tool_output: toolOutput(content),
      ...(id !== undefined ? { call_id: id } : {}),
      ...rest,
    });
  }

  /** The tool a call id named, if a call with that id was made. */
  toolOf(id: string): string | undefined {
    return this.names.get(id);
  }

  private push(step: Omit<Parameters<typeof makeStep>[0], 'step_id'>): TrajectoryStep {
    const made = makeStep({ ...step, step_id: this.steps.length + 1 });
    this.steps.push(made);
    return made;
  }
}

/** A message's text: a string, or the text parts of a content list (`{ type: 'text', text }`, or bare strings). */
export function contentText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const texts: string[] = [];
  for (const part of content) {
    if (typeof part === 'string') texts.push(part);
    else if (isRecord(part) && typeof part['text'] === 'string' && (part['type'] ?? 'text') === 'text')
      texts.push(part['text']);
  }
  return texts.join('\n');
}

/** A finite number, else `undefined` (strings of digits are read: some frameworks write costs as `"0.0000000"`). */
export function num(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(value.trim())) return Number(value);
  return undefined;
}

/** Prompt plus completion tokens of an OpenAI/litellm `usage` object, or `undefined` when it records none. */
export function usageTokens(usage: unknown): number | undefined {
  if (!isRecord(usage)) return undefined;
  const input = num(usage['prompt_tokens']) ?? num(usage['input_tokens']);
  const output = num(usage['completion_tokens']) ?? num(usage['output_tokens']);
  if (input !== undefined || output !== undefined) return (input ?? 0) + (output ?? 0);
  return num(usage['total_tokens']);
}

/**
 * A run's cost as a measurement: a positive number of USD. A zero is what these frameworks write when they know no
 * price for the model (litellm's and AgentOps's price tables, OpenHands' `accumulated_cost` with no `costs`), so it is
 * not taken as a free run: the cost is then not measured, and a cost budget says so rather than passing.
 */
export function measuredCost(value: unknown): number | undefined {
  const cost = num(value);
  return cost !== undefined && cost > 0 ? cost : undefined;
}
