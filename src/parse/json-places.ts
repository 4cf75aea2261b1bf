import { closingQuote } from './depth.js';
import { LineIndex, type Place } from './position.js';

/** Where a JSON value starts, and for a container where each of its members is written. */
interface Spot {
  at: number;
  /** An array's items. */
  items?: Spot[];
  /** An object's members: where each key is written and its value's spot (the last one wins, as in JSON.parse). */
  members?: Map<string, { key: number; value: Spot }>;
}

/** Places data paths (`['steps', '3', 'tool_name']`) in a JSON text; see `jsonLocator`. */
export type JsonLocator = (path: readonly string[], key?: string) => Place | undefined;

/**
 * A locator for one JSON text: the first call reads the text once (one scan, an explicit stack, no recursion) and
 * records where every value and key starts, with a line index built once; every call after that walks its path in
 * the recorded tree and finds its line by binary search. So a file with 100,000 schema errors is read twice in all
 * (the parse, then this scan), never once per error. A path that leaves the document is placed at its nearest
 * existing parent; with `key`, the place is that key of the object at the path. The text must be JSON that parsed;
 * past a syntax error the places stop where the scan stopped.
 */
export function jsonLocator(text: string): JsonLocator {
  let root: Spot | undefined;
  let lines: LineIndex | undefined;
  return (path, key) => {
    if (!lines) {
      root = scanPlaces(text);
      lines = new LineIndex(text);
    }
    let node = root;
    for (const segment of path) {
      const child = childOf(node, segment);
      if (!child) break;
      node = child;
    }
    if (!node) return undefined;
    const offset = (key === undefined ? undefined : node.members?.get(key)?.key) ?? node.at;
    const { line, column } = lines.position(offset);
    return { line, column };
  };
}

function childOf(node: Spot | undefined, segment: string): Spot | undefined {
  if (node?.items) return node.items[Number(segment)];
  return node?.members?.get(segment)?.value;
}

/** A container being scanned, and the key whose value comes next in an object. */
interface Open {
  spot: Spot;
  key: string | undefined;
  keyAt: number;
}

/** The spots of a JSON text, in one pass. */
function scanPlaces(text: string): Spot | undefined {
  let root: Spot | undefined;
  const stack: Open[] = [];
  const place = (spot: Spot) => {
    const parent = stack[stack.length - 1];
    if (!parent) root ??= spot;
    else if (parent.spot.items) parent.spot.items.push(spot);
    else if (parent.key !== undefined) {
      parent.spot.members!.set(parent.key, { key: parent.keyAt, value: spot });
      parent.key = undefined;
    }
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x2c /* , */ || c === 0x3a /* : */)
      continue;
    if (c === 0x7b /* { */ || c === 0x5b /* [ */) {
      const spot: Spot = c === 0x7b ? { at: i, members: new Map() } : { at: i, items: [] };
      place(spot);
      stack.push({ spot, key: undefined, keyAt: 0 });
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      stack.pop();
    } else if (c === 0x22 /* " */) {
      const end = stringEnd(text, i);
      const parent = stack[stack.length - 1];
      if (parent?.spot.members && parent.key === undefined) {
        parent.key = JSON.parse(text.slice(i, end)) as string;
        parent.keyAt = i;
      } else place({ at: i });
      i = end - 1;
    } else {
      // A number, true, false or null: runs to the next delimiter.
      place({ at: i });
      while (i + 1 < text.length && !isDelimiter(text.charCodeAt(i + 1))) i++;
    }
  }
  return root;
}

/** The offset just past the string that starts at `from` (its closing quote), or the text's end. */
function stringEnd(text: string, from: number): number {
  const quote = closingQuote(text, from);
  return quote === -1 ? text.length : quote + 1;
}

function isDelimiter(c: number): boolean {
  return (
    c === 0x2c ||
    c === 0x7d ||
    c === 0x5d ||
    c === 0x20 ||
    c === 0x0a ||
    c === 0x0d ||
    c === 0x09 ||
    c === 0x3a
  );
}
