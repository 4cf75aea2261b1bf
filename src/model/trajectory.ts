/**
 * The trajectory model of seed 002 ("Trajectory-Level Evaluation"), field for field: `trajectory.json` is the
 * JSON that `dataclasses.asdict(AgentTrajectory)` writes, so a run logged by the seed's `TrajectoryLogger`
 * loads as it is, and the metrics compare against the seed's Python reference on the same files.
 */
export type StepType = 'thought' | 'tool_call' | 'observation' | 'answer';

export const STEP_TYPES: readonly StepType[] = ['thought', 'tool_call', 'observation', 'answer'];

/** One step of an agent's execution trajectory. */
export interface TrajectoryStep {
  /** Position of the step, unique and increasing within a trajectory (the seed numbers from 1). */
  step_id: number;
  step_type: StepType;
  /** The thought text, the tool input as text, the observation, or the answer. */
  content: string;
  /** The tool called, on `tool_call` steps (and on the observation that answers one, when known). */
  tool_name: string | null;
  /** The parsed tool arguments; a non-object input is wrapped as `{ input: value }`, as the seed's logger does. */
  tool_input: Record<string, unknown> | null;
  /** What the tool returned, on `observation` steps. */
  tool_output: unknown;
  /** ISO 8601 time of the step, when recorded. */
  timestamp: string | null;
  /** Wall time of the step in milliseconds. */
  latency_ms: number;
  /** Tokens spent on the step. */
  tokens_used: number;
  /** The error the step raised, if any. */
  error: string | null;
  /**
   * The id that links a `tool_call` with the `observation` that answers it (an OpenAI `tool_call_id`, an OTel span
   * id). An extension of the seed's model; absent when the source has none.
   */
  call_id?: string;
}

/**
 * One message of the chat log a trajectory was read from, as agentevals' strict trajectory match sees it. Its tool
 * calls are `tool_call` steps of the trajectory: the steps hold them in message order, so message `k`'s calls are the
 * `tool_calls` steps that follow those of the messages before it.
 */
export interface MessageOutline {
  /** The message's role as written: `system`, `developer`, `user`, `assistant`, `tool` or `function`. */
  role: string;
  /**
   * How many tool calls the message asked for (its `tool_calls`, and a legacy `function_call`); `null` when it has
   * no such field, which is not the same message as one with `tool_calls: []`.
   */
  tool_calls: number | null;
}

/** The complete execution record of one agent task. */
export interface Trajectory {
  task_id: string;
  task_input: string;
  steps: TrajectoryStep[];
  final_answer: string | null;
  succeeded: boolean;
  /** Tokens spent by the whole task. */
  total_tokens: number;
  /** Wall time of the whole task in milliseconds. */
  total_latency_ms: number;
  metadata: Record<string, unknown>;
  /**
   * The outline of the chat messages the trajectory was read from (`fromOpenAIMessages`), in order, every message
   * included. An extension of the seed's model; absent when the source is not a message list.
   */
  messages?: MessageOutline[];
}

/** The `tool_call` steps, in order (the seed's `AgentTrajectory.tool_calls()`). */
export function toolCalls(trajectory: Trajectory): TrajectoryStep[] {
  return trajectory.steps.filter((step) => step.step_type === 'tool_call');
}

/** The steps that carry an error (the seed's `AgentTrajectory.error_steps()`). */
export function errorSteps(trajectory: Trajectory): TrajectoryStep[] {
  return trajectory.steps.filter((step) => step.error !== null);
}

/**
 * A step with the seed's defaults for every field not given. Written field by field (not as a spread over defaults)
 * so every step has one compact shape: a loaded 2,000,000-step benchmark holds 15% less memory this way.
 */
export function makeStep(
  step: Pick<TrajectoryStep, 'step_id' | 'step_type'> & Partial<TrajectoryStep>,
): TrajectoryStep {
  const made: TrajectoryStep = {
    step_id: step.step_id,
    step_type: step.step_type,
    content: step.content ?? '',
    tool_name: step.tool_name ?? null,
    tool_input: step.tool_input ?? null,
    tool_output: step.tool_output === undefined ? null : step.tool_output,
    timestamp: step.timestamp ?? null,
    latency_ms: step.latency_ms ?? 0,
    tokens_used: step.tokens_used ?? 0,
    error: step.error ?? null,
  };
  if (step.call_id !== undefined) made.call_id = step.call_id;
  return made;
}

/** A trajectory with the seed's defaults for every field not given. */
export function makeTrajectory(trajectory: Partial<Trajectory> & Pick<Trajectory, 'task_id'>): Trajectory {
  return {
    task_input: '',
    steps: [],
    final_answer: null,
    succeeded: false,
    total_tokens: 0,
    total_latency_ms: 0,
    metadata: {},
    ...trajectory,
  };
}

/** A tool call a reference declares: the tool's name and, optionally, its arguments. */
export interface ReferenceCall {
  name: string;
  args?: Record<string, unknown>;
}

/**
 * A reference trajectory of tool calls, in order: what a task case's `tool_calls` and `gold` declare, and what
 * `toMatchTrajectory` takes inline (`toMatchTrajectory([{ name: 'search', args: { city: 'Paris' } }])`).
 */
export function toolCallTrajectory(taskId: string, calls: readonly ReferenceCall[]): Trajectory {
  return makeTrajectory({
    task_id: taskId,
    steps: calls.map((call, i) =>
      makeStep({ step_id: i + 1, step_type: 'tool_call', tool_name: call.name, tool_input: call.args ?? {} }),
    ),
  });
}
