// What a recorded AI SDK model response must hold for the SDK to read it back: checked when a cassette loads, so a
// hand-edited entry is a one-line error naming it rather than "Cannot read properties of undefined (reading 'total')"
// or "Invalid time value" from inside `generateText`.
import { isObject } from '../../cassette/store.js';

type Version = 'v2' | 'v3';

/** The checker of a recorded `doGenerate` result of a model of this specification version. */
export function generateCodec(version: Version): (json: unknown) => string | undefined {
  return (json) => {
    if (!isObject(json)) return 'the recorded response is not an object';
    if (!Array.isArray(json.content)) return 'content is not a list of parts';
    for (let i = 0; i < json.content.length; i++) {
      const problem = partProblem(json.content[i], `content[${i}]`);
      if (problem) return problem;
    }
    return (
      finishProblem(json.finishReason, 'finishReason', version) ??
      usageProblem(json.usage, 'usage', version) ??
      (isObject(json.response) ? dateProblem(json.response.timestamp, 'response.timestamp') : undefined)
    );
  };
}

/** The checker of the recorded parts of a `doStream` response of a model of this specification version. */
export function streamCodec(version: Version): (json: unknown) => string | undefined {
  return (json) => {
    if (!Array.isArray(json)) return 'the recorded stream is not a list of parts';
    for (let i = 0; i < json.length; i++) {
      const part = json[i];
      const at = `[${i}]`;
      const problem = partProblem(part, at);
      if (problem) return problem;
      const p = part as Record<string, unknown>;
      const more =
        p.type === 'finish'
          ? (finishProblem(p.finishReason, `${at}.finishReason`, version) ??
            usageProblem(p.usage, `${at}.usage`, version))
          : dateProblem(p.timestamp, `${at}.timestamp`);
      if (more) return more;
    }
    return undefined;
  };
}

function partProblem(part: unknown, at: string): string | undefined {
  if (!isObject(part) || typeof part.type !== 'string') return `${at} is not a part with a "type"`;
  if (
    part.type === 'tool-call' &&
    (typeof part.toolCallId !== 'string' || typeof part.toolName !== 'string')
  ) {
    return `${at} is a tool call without toolCallId or toolName`;
  }
  if ((part.type === 'text' || part.type === 'reasoning') && typeof part.text !== 'string') {
    return `${at}.text is not a string`;
  }
  return undefined;
}

/** v2: a string; v3: `{ unified, raw }`. */
function finishProblem(reason: unknown, at: string, version: Version): string | undefined {
  if (version === 'v2') return typeof reason === 'string' ? undefined : `${at} is not a string`;
  return isObject(reason) && typeof reason.unified === 'string'
    ? undefined
    : `${at} is not { unified, raw } (a v3 finish reason)`;
}

/** v2: token counts as numbers (or absent); v3: `inputTokens` and `outputTokens` objects with a `total`. */
function usageProblem(usage: unknown, at: string, version: Version): string | undefined {
  if (!isObject(usage)) return `${at} is missing`;
  for (const field of ['inputTokens', 'outputTokens']) {
    const value = usage[field];
    if (version === 'v2') {
      if (value !== undefined && value !== null && typeof value !== 'number')
        return `${at}.${field} is not a number`;
    } else if (!isObject(value)) return `${at}.${field} is missing (a v3 usage has { total, ... })`;
    else if (value.total !== undefined && value.total !== null && typeof value.total !== 'number') {
      return `${at}.${field}.total is not a number`;
    }
  }
  return undefined;
}

function dateProblem(value: unknown, at: string): string | undefined {
  if (value === undefined) return undefined;
  return typeof value === 'string' && !Number.isNaN(Date.parse(value))
    ? undefined
    : `${at} is not a date (${JSON.stringify(value)})`;
}
