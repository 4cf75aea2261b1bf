import type { Diagnostic } from '../errors/index.js';
import { UserError } from '../errors/index.js';
import { parseJson, stringifyJson } from '../parse/json.js';
import type { Place } from '../parse/locate.js';

/** Where an adapter's input came from, so a shape error names its file, line and column. */
export interface AdapterSource {
  /** The file the JSON came from, for messages (each adapter has its own placeholder default). */
  file?: string;
  /** Places a data path in the file (`['messages', '3', 'role']`), so a shape error gets its line and column. */
  locate?: (path: readonly string[], key?: string) => Place | undefined;
}

/**
 * Collects shape problems of one input, each with its data path rendered as the user wrote it
 * (`messages[3].tool_calls[0].function.name`), so every problem of a file is reported at once.
 */
export class Problems {
  private readonly list: Diagnostic[] = [];

  constructor(
    private readonly file: string,
    private readonly locate: AdapterSource['locate'],
  ) {}

  add(path: readonly (string | number)[], message: string): void {
    const segments = path.map(String);
    const place = this.locate?.(segments);
    this.list.push({
      file: this.file,
      ...(place ? { line: place.line, column: place.column } : {}),
      message: `${renderPath(path)}: ${message}`,
    });
  }

  /** The problems collected so far. */
  diagnostics(): readonly Diagnostic[] {
    return this.list;
  }

  /** Throws every problem collected so far as one `UserError`. */
  throwIfAny(): void {
    if (this.list.length > 0) throw new UserError(this.list);
  }
}

/** `['messages', 3, 'role']` → `messages[3].role`; the empty path is the document itself. */
export function renderPath(path: readonly (string | number)[]): string {
  if (path.length === 0) return '(top level)';
  let text = '';
  for (const segment of path) {
    if (typeof segment === 'number' || /^\d+$/.test(segment)) text += `[${segment}]`;
    else text += text === '' ? segment : `.${segment}`;
  }
  return text;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** How a value reads in a message: `a string`, `null`, `an array`, `the number 3`. */
export function describe(value: unknown): string {
  if (value === undefined) return 'nothing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'string')
    return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  if (typeof value === 'object') return 'an object';
  return `${typeof value === 'number' ? 'the number' : typeof value === 'boolean' ? 'the boolean' : typeof value} ${String(value)}`;
}

/**
 * Reads a text that should hold JSON (tool arguments, tool results, message lists in span attributes). Integers past
 * JavaScript's safe range are kept exactly, as `parseJson` does everywhere else; a text that is not JSON gives
 * `undefined`. The text is agent-produced and untrusted: it is only ever parsed as data.
 */
export function tryParseJson(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '' || !mayBeJson(trimmed)) return undefined;
  try {
    return parseJson(trimmed, '<value>');
  } catch {
    return undefined;
  }
}

/**
 * Whether a trimmed text can be JSON: it opens an object, array, string or number, or is a literal. A character test
 * rather than a regular expression: this runs on every tool argument and result of an imported run.
 */
function mayBeJson(trimmed: string): boolean {
  const c = trimmed.charCodeAt(0);
  // `{`, `[`, `"`, `-`, a digit
  if (c === 0x7b || c === 0x5b || c === 0x22 || c === 0x2d || (c >= 0x30 && c <= 0x39)) return true;
  return trimmed === 'true' || trimmed === 'false' || trimmed === 'null';
}

/**
 * Tool arguments as seed 002 stores them: an object as it is; anything else (a list, a number, text that is not JSON)
 * wrapped as `{ input: value }`, as the seed's `TrajectoryLogger.on_agent_action` wraps non-dict input.
 */
export function toolInput(raw: unknown): Record<string, unknown> {
  if (raw === undefined || raw === null) return {};
  if (typeof raw === 'string') {
    if (raw.trim() === '') return {};
    const parsed = tryParseJson(raw);
    if (isRecord(parsed)) return parsed;
    return { input: parsed === undefined ? raw : parsed };
  }
  if (isRecord(raw)) return raw;
  return { input: raw };
}

/** The text a step shows for a value: strings as they are, anything else as compact JSON. */
export function asText(value: unknown): string {
  if (value === undefined || value === null) return '';
  if (typeof value === 'string') return value;
  return stringifyJson(value) ?? String(value);
}

/** A tool result as data when it is JSON text, else as it came. */
export function toolOutput(value: unknown): unknown {
  if (typeof value !== 'string') return value ?? null;
  const parsed = tryParseJson(value);
  return parsed === undefined ? value : parsed;
}
