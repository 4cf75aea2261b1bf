import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import protobuf from 'protobufjs';

const FIXTURES = join(import.meta.dirname, 'fixtures/otlp');

/** `ExportLogsServiceRequest`, from the OTLP .proto texts in fixtures/otlp (dependencies first). */
export function exportLogsRequestType(): protobuf.Type {
  const root = new protobuf.Root();
  for (const file of ['common.proto', 'resource.proto', 'logs.proto', 'logs_service.proto'])
    protobuf.parse(readFileSync(join(FIXTURES, file), 'utf8'), root);
  root.resolveAll();
  return root.lookupType('opentelemetry.proto.collector.logs.v1.ExportLogsServiceRequest');
}

/** OTLP/JSON encodes trace and span ids as hex, not proto3 JSON's base64 (OTLP specification, JSON encoding). */
const HEX_IDS: Record<string, number> = { traceId: 32, spanId: 16 };

/**
 * Everything in `value` that is not valid OTLP/JSON for `type`: unknown keys (OTLP/JSON keys are the lowerCamelCase
 * field names), wrong JSON types, 64-bit integers not written as decimal strings, enums not written as integers, ids
 * that are not lowercase hex of the right length, and more than one member of a oneof.
 */
export function otlpJsonProblems(type: protobuf.Type, value: unknown, path = '$'): string[] {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    return [`${path}: expected an object`];
  const problems: string[] = [];
  for (const oneof of type.oneofsArray) {
    const set = oneof.oneof.filter((name) => (value as Record<string, unknown>)[name] !== undefined);
    if (set.length > 1) problems.push(`${path}: more than one of oneof ${oneof.name}: ${set.join(', ')}`);
  }
  for (const [key, item] of Object.entries(value)) {
    const field = type.fields[key];
    const at = `${path}.${key}`;
    if (!field) {
      problems.push(`${at}: no such field in ${type.name}`);
      continue;
    }
    if (field.repeated) {
      if (!Array.isArray(item)) problems.push(`${at}: expected an array`);
      else
        for (const [i, element] of item.entries())
          problems.push(...fieldProblems(field, element, `${at}[${i}]`));
    } else problems.push(...fieldProblems(field, item, at));
  }
  return problems;
}

function fieldProblems(field: protobuf.Field, value: unknown, at: string): string[] {
  const resolved = field.resolve().resolvedType;
  if (resolved instanceof protobuf.Type) return otlpJsonProblems(resolved, value, at);
  if (resolved instanceof protobuf.Enum)
    return Number.isInteger(value) && Object.values(resolved.values).includes(value as number)
      ? []
      : [`${at}: expected an integer value of ${resolved.name}`];
  const fail = (what: string) => [`${at}: expected ${what}, got ${JSON.stringify(value)}`];
  switch (field.type) {
    case 'string':
      return typeof value === 'string' ? [] : fail('a string');
    case 'bool':
      return typeof value === 'boolean' ? [] : fail('a boolean');
    case 'double':
    case 'float':
      return typeof value === 'number' ? [] : fail('a number');
    case 'int64':
    case 'uint64':
    case 'fixed64':
    case 'sint64':
    case 'sfixed64':
      return typeof value === 'string' && /^-?\d+$/.test(value)
        ? []
        : fail('a 64-bit integer as a decimal string');
    case 'bytes': {
      const length = HEX_IDS[field.name];
      if (length === undefined) return typeof value === 'string' ? [] : fail('base64');
      return typeof value === 'string' && new RegExp(`^[0-9a-f]{${length}}$`).test(value)
        ? []
        : fail(`${length} lowercase hex digits`);
    }
    default:
      return Number.isInteger(value) ? [] : fail(`an integer (${field.type})`);
  }
}

/**
 * Encodes an OTLP/JSON request to the protobuf binary form and decodes it back, as a collector would: hex ids become
 * bytes. Returns the decoded message as plain data (longs as strings, bytes as hex).
 */
export function roundTrip(type: protobuf.Type, json: unknown): Record<string, unknown> {
  const toProto = (v: unknown, key?: string): unknown => {
    if (Array.isArray(v)) return v.map((x) => toProto(x));
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toProto(x, k)]));
    if (key !== undefined && key in HEX_IDS && typeof v === 'string') return Buffer.from(v, 'hex');
    return v;
  };
  const message = type.fromObject(toProto(json) as Record<string, unknown>);
  const bytes = type.encode(message).finish();
  const decoded = type.toObject(type.decode(bytes), { longs: String, bytes: Array });
  const toHex = (v: unknown, key?: string): unknown => {
    if (key !== undefined && key in HEX_IDS && Array.isArray(v))
      return Buffer.from(v as number[]).toString('hex');
    if (Array.isArray(v)) return v.map((x) => toHex(x));
    if (typeof v === 'object' && v !== null)
      return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, toHex(x, k)]));
    return v;
  };
  return toHex(decoded) as Record<string, unknown>;
}
