/**
 * The OTLP/JSON shapes needlework writes: the subset of `ExportLogsServiceRequest`
 * (opentelemetry-proto, `collector/logs/v1/logs_service.proto`) an evaluation event needs, in OTLP's JSON encoding:
 * lowerCamelCase keys, 64-bit integers as decimal strings, trace and span ids as lowercase hex, enums as integers.
 */
export interface OtlpAnyValue {
  stringValue?: string;
  boolValue?: boolean;
  /** A 64-bit integer, as a decimal string. */
  intValue?: string;
  doubleValue?: number;
}

export interface OtlpKeyValue {
  key: string;
  value: OtlpAnyValue;
}

export interface OtlpLogRecord {
  /** When the evaluation happened: nanoseconds since the Unix epoch, as a decimal string. */
  timeUnixNano: string;
  observedTimeUnixNano: string;
  /** 9 (INFO) for a pass or a criterion that does not apply, 13 (WARN) for a fail. */
  severityNumber: number;
  severityText: string;
  /** `gen_ai.evaluation.result`. */
  eventName: string;
  attributes: OtlpKeyValue[];
  /** The evaluated trace: 32 lowercase hex digits; absent when the workup did not come from a trace. */
  traceId?: string;
  /** The evaluated span: 16 lowercase hex digits. */
  spanId?: string;
}

export interface OtlpExportLogsServiceRequest {
  resourceLogs: Array<{
    resource: { attributes: OtlpKeyValue[] };
    scopeLogs: Array<{
      scope: { name: string; version?: string };
      logRecords: OtlpLogRecord[];
    }>;
  }>;
}
