import type { Check } from '../../model/check.js';
import type { CheckRecord } from '../checks.js';
import { expectationText, numericValue } from '../format.js';
import type { GateText } from '../gate-text.js';
import type { OtlpAnyValue, OtlpExportLogsServiceRequest, OtlpKeyValue, OtlpLogRecord } from './types.js';

/** The OpenTelemetry GenAI semantic conventions' event for one evaluation result. */
export const EVALUATION_EVENT = 'gen_ai.evaluation.result';

/** The trace and span a workup was recorded as (`meta.trace` of its meta.json). */
export interface EvaluatedSpan {
  traceId: string;
  spanId?: string;
}

export interface EvaluationLogsOptions {
  /** When the evaluations happened (the run's end). */
  time: Date;
  /** The `service.name` of the resource. @default 'needlework' */
  serviceName?: string;
  /** needlework's version, for the instrumentation scope. */
  version?: string;
  /** The span a check's workup was recorded as, when it came from an OTel trace. */
  spanOf?: (check: Check) => EvaluatedSpan | undefined;
  /** The run's comparison with its baseline: written after the checks as `needlework.gate` events. */
  gate?: GateText;
}

/** The event of the run's comparison with its baseline: its headline, baseline and counts. */
export const GATE_EVENT = 'needlework.gate';
/** The event of one case x criterion that changed against the baseline (regressed, fixed, flaky, moved, ...). */
export const GATE_CHANGE_EVENT = 'needlework.gate.change';

const TRACE_ID = /^(?!0{32})[0-9a-f]{32}$/;
const SPAN_ID = /^(?!0{16})[0-9a-f]{16}$/;

/**
 * A trace reference fit for OTLP: ids lowercased, a trace id of 32 hex digits and a span id of 16, neither all zero
 * (OTLP calls those invalid). A malformed span id is dropped (the event stays on the trace); a malformed trace id
 * drops both.
 */
export function evaluatedSpan(value: unknown): EvaluatedSpan | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const { traceId, spanId } = value as Record<string, unknown>;
  if (typeof traceId !== 'string' || !TRACE_ID.test(traceId.toLowerCase())) return undefined;
  const span: EvaluatedSpan = { traceId: traceId.toLowerCase() };
  if (typeof spanId === 'string' && SPAN_ID.test(spanId.toLowerCase())) span.spanId = spanId.toLowerCase();
  return span;
}

/**
 * The run's needlework checks as OTLP log records of `gen_ai.evaluation.result` events, one per check, in report
 * order. Per the GenAI semantic conventions: `gen_ai.evaluation.name` is the criterion, `gen_ai.evaluation.score.value`
 * the measured value (booleans as 1/0; absent when the metric does not apply), `gen_ai.evaluation.score.label` the
 * verdict (`pass`, `fail`, `not-applicable`) and `gen_ai.evaluation.explanation` the expected-against-found line. A
 * test that threw instead of deciding a verdict also carries `error.type`. The `needlework.*` attributes say which spec,
 * workup and threshold. Each record is parented to the evaluated trace and span when the workup came from one.
 * Plain Vitest tests are not evaluations and are left out.
 */
export function buildEvaluationLogs(
  checks: readonly CheckRecord[],
  options: EvaluationLogsOptions,
): OtlpExportLogsServiceRequest {
  return envelope(options, [...evaluationRecords(checks, options)]);
}

/** How many records an `evaluationLogsJson` wrote, and how many of them are parented to a trace; final once read. */
export interface EvaluationLogsTally {
  records: number;
  parented: number;
}

/**
 * `buildEvaluationLogs` as the OTLP/JSON file's text (`JSON.stringify(request, null, 2)` and a line ending), one log
 * record at a time: the reporter writes each as it comes, so a run of 30,000 checks never holds its records nor its
 * 86 MB of text (both together stood beside the HTML and JUnit reports' data at the end of a 10,000-case run). `tally`
 * counts what was written.
 */
export function evaluationLogsJson(
  checks: readonly CheckRecord[],
  options: EvaluationLogsOptions,
  tally: EvaluationLogsTally = { records: 0, parented: 0 },
): Iterable<string> {
  // The envelope with one marker record: the marker's line gives where records go and their indentation.
  const text = JSON.stringify(envelope(options, [RECORDS as unknown as OtlpLogRecord]), null, 2);
  const marker = RECORDS_LINE.exec(text)!;
  const indent = marker[1]!;
  const head = text.slice(0, marker.index);
  const tail = `${text.slice(marker.index + marker[0].length)}\n`;
  return (function* () {
    let first = true;
    for (const record of evaluationRecords(checks, options)) {
      tally.records++;
      if (record.traceId) tally.parented++;
      // JSON.stringify writes no raw line ending inside a string: every one is its layout, indented here a level down.
      const json = `${indent}${JSON.stringify(record, null, 2).replaceAll('\n', `\n${indent}`)}`;
      yield first ? `${head}${json}` : `,\n${json}`;
      first = false;
    }
    // No record: what JSON.stringify writes for an empty array.
    yield first ? `${JSON.stringify(envelope(options, []), null, 2)}\n` : tail;
  })();
}

/** The marker record of `evaluationLogsJson`: a string JSON.stringify writes escaped, on a line of its own. */
const RECORDS = '\u0000records';
const RECORDS_LINE = /^( *)"\\u0000records"$/m;

function* evaluationRecords(
  checks: readonly CheckRecord[],
  options: EvaluationLogsOptions,
): Generator<OtlpLogRecord> {
  const nanos = `${BigInt(options.time.getTime()) * 1_000_000n}`;
  for (const check of checks) {
    const meta = check.meta;
    if (!meta) continue;
    const record: OtlpLogRecord = {
      timeUnixNano: nanos,
      observedTimeUnixNano: nanos,
      severityNumber: meta.verdict === 'fail' || check.state === 'failed' ? 13 : 9,
      severityText: meta.verdict === 'fail' || check.state === 'failed' ? 'WARN' : 'INFO',
      eventName: EVALUATION_EVENT,
      attributes: attributes(check, meta),
    };
    const span = options.spanOf?.(meta);
    if (span) {
      record.traceId = span.traceId;
      if (span.spanId) record.spanId = span.spanId;
    }
    yield record;
  }
  if (options.gate) yield* gateRecords(options.gate, nanos);
}

/**
 * The comparison as events, in the words of every other output: one `needlework.gate` (the headline, baseline,
 * counts, and whether anything regressed), then one `needlework.gate.change` per case x criterion that changed, what
 * regressed first, a regression at WARN.
 */
function* gateRecords(gate: GateText, nanos: string): Generator<OtlpLogRecord> {
  const at = { timeUnixNano: nanos, observedTimeUnixNano: nanos };
  yield {
    ...at,
    severityNumber: gate.regressed ? 13 : 9,
    severityText: gate.regressed ? 'WARN' : 'INFO',
    eventName: GATE_EVENT,
    attributes: [
      keyValue('needlework.gate.headline', gate.headline),
      keyValue('needlework.gate.baseline', gate.baseline),
      keyValue('needlework.gate.counts', gate.counts),
      { key: 'needlework.gate.regressed', value: { boolValue: gate.regressed } },
    ],
  };
  for (const row of gate.rows) {
    const regressed = row.status === 'regressed';
    yield {
      ...at,
      severityNumber: regressed ? 13 : 9,
      severityText: regressed ? 'WARN' : 'INFO',
      eventName: GATE_CHANGE_EVENT,
      attributes: [
        keyValue('needlework.gate.status', row.status),
        keyValue('needlework.gate.case', row.case),
        keyValue('gen_ai.evaluation.name', row.criterion),
        keyValue('needlework.gate.before', row.before),
        keyValue('needlework.gate.after', row.after),
        ...(row.basis !== undefined ? [keyValue('needlework.gate.basis', row.basis)] : []),
        ...(row.reason !== undefined ? [keyValue('needlework.gate.reason', row.reason)] : []),
        keyValue('needlework.gate.line', row.line),
      ],
    };
  }
}

function envelope(options: EvaluationLogsOptions, logRecords: OtlpLogRecord[]): OtlpExportLogsServiceRequest {
  return {
    resourceLogs: [
      {
        resource: { attributes: [keyValue('service.name', options.serviceName ?? 'needlework')] },
        scopeLogs: [
          {
            scope: { name: 'needlework', ...(options.version ? { version: options.version } : {}) },
            logRecords,
          },
        ],
      },
    ],
  };
}

function attributes(check: CheckRecord, meta: Check): OtlpKeyValue[] {
  const out: OtlpKeyValue[] = [keyValue('gen_ai.evaluation.name', meta.criterion)];
  const score = numericValue(meta.value);
  if (score !== undefined) out.push({ key: 'gen_ai.evaluation.score.value', value: { doubleValue: score } });
  out.push(keyValue('gen_ai.evaluation.score.label', meta.verdict));
  out.push(keyValue('gen_ai.evaluation.explanation', expectationText(meta)));
  // A test that failed without a failing verdict threw: the evaluation errored rather than judged.
  if (check.state === 'failed' && meta.verdict !== 'fail')
    out.push(keyValue('error.type', check.errors[0]?.name ?? 'Error'));
  out.push(keyValue('needlework.spec', meta.spec));
  if (meta.case !== undefined) out.push(keyValue('needlework.case', meta.case));
  out.push(keyValue('needlework.workup', meta.workup));
  if (meta.task !== undefined) out.push(keyValue('needlework.task', meta.task));
  if (meta.trial !== undefined) out.push(keyValue('needlework.trial', String(meta.trial)));
  // Where the assertion is written, under OpenTelemetry's `code.*` attributes (semantic conventions 1.30).
  if (meta.specFile !== undefined) {
    out.push(keyValue('code.file.path', meta.specFile));
    if (meta.place) {
      out.push({ key: 'code.line.number', value: { intValue: String(meta.place.line) } });
      out.push({ key: 'code.column.number', value: { intValue: String(meta.place.column) } });
    }
  }
  out.push(keyValue('needlework.metric', meta.metric));
  if (meta.threshold !== undefined) {
    out.push({ key: 'needlework.threshold', value: { doubleValue: meta.threshold } });
    out.push(keyValue('needlework.comparator', meta.comparator ?? '>='));
  }
  if (meta.unit) out.push(keyValue('needlework.unit', meta.unit));
  out.push(keyValue('needlework.test', `${check.file} > ${check.fullName}`));
  return out;
}

function keyValue(key: string, value: string): OtlpKeyValue {
  const any: OtlpAnyValue = { stringValue: value };
  return { key, value: any };
}
