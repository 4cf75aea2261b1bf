import type { Trajectory } from '../model/trajectory.js';
import { toolCalls } from '../model/trajectory.js';
import type { WorkupMeta } from '../model/workup.js';
import { fromAgentOpsTrace } from './agentops.js';
import type { AdapterSource } from './common.js';
import type { TrajectoryFormat } from './detect.js';
import type { ImportedWorkup, ImportResult } from './imported.js';
import { fromInspectLog } from './inspect.js';
import { fromLitellmLog, isLitellmLog } from './litellm.js';
import { fromMiniSweAgent } from './mini-swe-agent.js';
import { fromOpenAIMessages } from './openai.js';
import { fromOpenHandsOutput } from './openhands.js';
import { fromOtelSpans, fromOtelTraces } from './otel.js';
import { fromOtelSdkSpans, hexId } from './otel-sdk.js';
import { fromSweAgentTrajectory } from './swe-agent.js';
import { fromTauBenchResults } from './tau-bench.js';
import { fromTau2Results } from './tau2-bench.js';
import { fromTrajectoryJson } from './trajectory-json.js';

export interface ImportJsonOptions extends AdapterSource {
  /** The run's name when the format records none (the file name without its extension). */
  name: string;
  /** Which trace to import from an OTLP file that holds several (all of them when left out). */
  traceId?: string;
}

/**
 * Every workup one parsed file gives in `format`. Shape errors of a single-run file throw a `UserError`; in a list
 * (tau-bench results, SDK spans) a bad element is listed in `failed` and the others are still imported.
 */
export function importJson(
  format: TrajectoryFormat,
  json: unknown,
  options: ImportJsonOptions,
): ImportResult {
  const result = importByFormat(format, json, options);
  for (const workup of result.workups) withInput(workup);
  return result;
}

/**
 * Names the question in `meta.input` when the meta names a task: readers that look for the question (the judge, the
 * reports) read `meta.input` before `meta.task`, and a task id such as tau-bench's `3` is no question.
 */
function withInput(workup: ImportedWorkup): void {
  const input = workup.trajectory.task_input;
  if (workup.meta.task !== undefined && workup.meta.input === undefined && input.trim() !== '') {
    workup.meta.input = input;
  }
}

function importByFormat(format: TrajectoryFormat, json: unknown, options: ImportJsonOptions): ImportResult {
  const source: AdapterSource = {
    ...(options.file !== undefined ? { file: options.file } : {}),
    ...(options.locate ? { locate: options.locate } : {}),
  };
  switch (format) {
    case 'openai':
      if (isLitellmLog(json)) return one(fromLitellmLog(json, { ...source, name: options.name }));
      return one(plain(options.name, fromOpenAIMessages(json, { ...source, taskId: options.name })));
    case 'mini-swe-agent':
      return one(fromMiniSweAgent(json, { ...source, taskId: options.name }));
    case 'tau2-bench':
      return fromTau2Results(json, source);
    case 'inspect':
      return fromInspectLog(json, source);
    case 'openhands':
      return fromOpenHandsOutput(json, source);
    case 'agentops':
      return one(fromTrace(fromAgentOpsTrace(json, source)));
    case 'trajectory':
      return one(plain(options.name, fromTrajectoryJson(json, source)));
    case 'swe-agent':
      return one(fromSweAgentTrajectory(json, { ...source, taskId: options.name }));
    case 'tau-bench':
      return fromTauBenchResults(json, source);
    case 'otel': {
      if (options.traceId !== undefined) {
        return one(fromTrace(fromOtelSpans(json, { ...source, traceId: options.traceId })));
      }
      const traces = fromOtelTraces(json, source);
      return { workups: traces.map(fromTrace), failed: [], many: traces.length > 1 };
    }
    case 'otel-sdk': {
      const { traces, skipped, unplaced } = fromOtelSdkSpans(json, source);
      return {
        workups: traces.map((t) => {
          const workup = fromTrace(t.trajectory);
          workup.dropped.push(...unplaced);
          return workup;
        }),
        failed: skipped,
        many: traces.length > 1,
      };
    }
  }
}

function one(workup: ImportedWorkup): ImportResult {
  return { workups: [workup], failed: [], many: false };
}

function plain(name: string, trajectory: Trajectory): ImportedWorkup {
  return { name: trajectory.task_id || name, trajectory, meta: {}, dropped: [] };
}

/**
 * A workup read from an OTel trace: `meta.trace` holds its ids in lowercase hex (the run span's id when there is
 * one), so an evaluation can be parented to the trace; the spans that made no step are said in `dropped`, and those
 * named like tools count as tool calls the source shows.
 */
function fromTrace(trajectory: Trajectory): ImportedWorkup {
  const traceId = trajectory.task_id;
  const runSpan = trajectory.metadata['run_span_id'];
  const spanId = typeof runSpan === 'string' ? hexId(runSpan, 16) : undefined;
  const meta: WorkupMeta = {
    trace: {
      traceId: hexId(traceId, 32) ?? traceId.toLowerCase(),
      ...(spanId !== undefined ? { spanId } : {}),
    },
  };
  const cost = trajectory.metadata['cost_usd'];
  if (typeof cost === 'number') meta['cost_usd'] = cost;
  const skipped = trajectory.metadata['spans_skipped'] as Record<string, number> | undefined;
  const dropped: string[] = [];
  let toolLike = 0;
  if (skipped) {
    const entries = Object.entries(skipped);
    const total = entries.reduce((n, [, count]) => n + count, 0);
    toolLike = entries.filter(([name]) => /tool/i.test(name)).reduce((n, [, count]) => n + count, 0);
    const names = entries
      .slice(0, 5)
      .map(([name, count]) => (count > 1 ? `${name || '(no name)'} ×${count}` : name || '(no name)'))
      .join(', ');
    dropped.push(
      `${total} span${total === 1 ? '' : 's'} not read as a tool, model or agent call (${names}${entries.length > 5 ? ', …' : ''})`,
    );
  }
  return {
    name: traceId,
    trajectory,
    meta,
    dropped,
    sourceToolCalls: toolCalls(trajectory).length + toolLike,
  };
}
