/**
 * Citation markers: `[cite:g1]`, `[cite:g1,g2]`, `[cite: g1, g2]`; `[cite:g1][cite:g2]` is two markers. Ids are
 * ledger ids, made of ASCII letters, digits, `_`, `.` and `-`. Read by hand rather than with the regex
 * `/\[cite:\s*([A-Za-z0-9_.-]+(?:\s*,\s*[A-Za-z0-9_.-]+)*)\s*\]/g` it matches exactly, since each of that regex's
 * matches allocates an array and its captures, and a note holds a marker in most sentences.
 */

/** A marker found in a text: its range (UTF-16 offsets, end exclusive) and its ids, in order. */
export interface Marker {
  start: number;
  end: number;
  ids: string[];
}

const WHITE_SPACE = /\s/;

/** The first well-formed marker of `text` that starts at or after `from`, or undefined. */
export function nextMarker(text: string, from: number): Marker | undefined {
  for (let start = text.indexOf('[cite:', from); start !== -1; start = text.indexOf('[cite:', start + 1)) {
    const marker = markerAt(text, start);
    if (marker) return marker;
  }
  return undefined;
}

function markerAt(text: string, start: number): Marker | undefined {
  let p = skipSpace(text, start + 6);
  let end = idEnd(text, p);
  if (end === p) return undefined;
  // A literal, not `push` on an empty array, which would leave room for 17 ids.
  const ids = [text.slice(p, end)];
  // More ids, each after a comma; a comma not followed by an id ends the list where the last id ended.
  for (;;) {
    const comma = skipSpace(text, end);
    if (text.charCodeAt(comma) !== 44) break;
    p = skipSpace(text, comma + 1);
    const next = idEnd(text, p);
    if (next === p) break;
    ids.push(text.slice(p, next));
    end = next;
  }
  const close = skipSpace(text, end);
  return text.charCodeAt(close) === 93 ? { start, end: close + 1, ids } : undefined;
}

function skipSpace(text: string, at: number): number {
  while (at < text.length && WHITE_SPACE.test(text[at]!)) at++;
  return at;
}

/** Where the run of id characters starting at `at` ends. */
function idEnd(text: string, at: number): number {
  while (at < text.length) {
    const c = text.charCodeAt(at);
    const id =
      (c >= 48 && c <= 57) ||
      (c >= 65 && c <= 90) ||
      (c >= 97 && c <= 122) ||
      c === 95 ||
      c === 46 ||
      c === 45;
    if (!id) break;
    at++;
  }
  return at;
}
