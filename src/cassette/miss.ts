// What a replay miss says: the call that is missing, the recorded call nearest to it, and where the two first differ.

import { stableJson } from './canonical.js';
import type { CallRequest } from './request.js';
import { isObject } from './store.js';

/** Characters of a tool's arguments shown when a call is named. */
const SHOWN_CHARS = 200;
/** Characters shown on each side of the first differing character of two strings. */
const CONTEXT_CHARS = 40;
/** Characters of arguments compared from each end when looking for the nearest recorded call. */
const COMPARED_CHARS = 100_000;

/**
 * A call as a message names it: a tool call by its name and arguments (cut after 200 characters), a model call by its
 * model alone (its arguments are the whole conversation; the difference says what changed).
 */
export function describeCall(request: Pick<CallRequest, 'kind' | 'name' | 'args'>): string {
  if (request.kind === 'model') return `model call to ${request.name}`;
  const args = stableJson(request.args) ?? '';
  return `tool call ${request.name}(${args.length > SHOWN_CHARS ? `${args.slice(0, SHOWN_CHARS)}…` : args})`;
}

/**
 * The recorded call most like `request`: of its kind; the same name first; then the longest run of equal characters
 * at the start and end of the canonical arguments (a conversation that went on differently shares its beginning with
 * the recording, a tool's changed argument leaves the rest equal); then the same trial.
 */
export function nearestCall(
  request: CallRequest,
  recorded: Iterable<{ request: CallRequest }>,
): CallRequest | undefined {
  const text = stableJson(request.args) ?? '';
  let best: CallRequest | undefined;
  let bestScore: [number, number, number] = [-1, -1, -1];
  for (const { request: other } of recorded) {
    if (other.kind !== request.kind) continue;
    const score: [number, number, number] = [
      other.name === request.name ? 1 : 0,
      sharedEnds(text, stableJson(other.args) ?? ''),
      other.trial === request.trial ? 1 : 0,
    ];
    if (better(score, bestScore)) {
      best = other;
      bestScore = score;
    }
  }
  return best;
}

function better(a: readonly number[], b: readonly number[]): boolean {
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i]! > b[i]!;
  return false;
}

/** Characters equal at the start plus at the end of two strings (not overlapping), up to `COMPARED_CHARS` each. */
function sharedEnds(a: string, b: string): number {
  const limit = Math.min(a.length, b.length, COMPARED_CHARS);
  let start = 0;
  while (start < limit && a.charCodeAt(start) === b.charCodeAt(start)) start++;
  let end = 0;
  const rest = Math.min(limit, Math.min(a.length, b.length) - start);
  while (end < rest && a.charCodeAt(a.length - 1 - end) === b.charCodeAt(b.length - 1 - end)) end++;
  return start + end;
}

/**
 * Where two JSON values first differ, in key order, however deep and however far in: the path and both sides
 * (`args.prompt[1].content[0].text: recorded "…to Wren?", now "…to Orrin Vale?"`), each string shown around its first
 * differing character. `undefined` when they are equal.
 */
export function firstDifference(recorded: unknown, now: unknown, path = ''): string | undefined {
  if (Array.isArray(recorded) && Array.isArray(now)) {
    const n = Math.min(recorded.length, now.length);
    for (let i = 0; i < n; i++) {
      const found = firstDifference(recorded[i], now[i], `${path}[${i}]`);
      if (found !== undefined) return found;
    }
    if (recorded.length === now.length) return undefined;
    return `${path || '(top)'}: recorded ${recorded.length} items, now ${now.length}`;
  }
  if (isObject(recorded) && isObject(now)) {
    const keys = [...new Set([...Object.keys(recorded), ...Object.keys(now)])].sort();
    for (const key of keys) {
      const at = path === '' ? key : `${path}.${key}`;
      if (!(key in recorded)) return `${at}: recorded nothing, now ${shown(now[key])}`;
      if (!(key in now)) return `${at}: recorded ${shown(recorded[key])}, now nothing`;
      const found = firstDifference(recorded[key], now[key], at);
      if (found !== undefined) return found;
    }
    return undefined;
  }
  if (typeof recorded === 'string' && typeof now === 'string') {
    if (recorded === now) return undefined;
    let i = 0;
    while (i < recorded.length && i < now.length && recorded[i] === now[i]) i++;
    return `${path || '(top)'} (character ${i + 1}): recorded ${around(recorded, i)}, now ${around(now, i)}`;
  }
  if (stableJson(recorded) === stableJson(now)) return undefined;
  return `${path || '(top)'}: recorded ${shown(recorded)}, now ${shown(now)}`;
}

/** A string around its character `at`, quoted as JSON, with `…` where it was cut. */
function around(text: string, at: number): string {
  const from = Math.max(0, at - CONTEXT_CHARS);
  const to = Math.min(text.length, at + CONTEXT_CHARS);
  return `${from > 0 ? '…' : ''}${JSON.stringify(text.slice(from, to))}${to < text.length ? '…' : ''}`;
}

function shown(value: unknown): string {
  const text = stableJson(value) ?? String(value);
  return text.length > 2 * CONTEXT_CHARS ? `${text.slice(0, 2 * CONTEXT_CHARS)}…` : text;
}
