import type { Document, LineCounter, Node, Pair } from 'yaml';
import { type JsonLocator, jsonLocator } from './json-places.js';
import type { Place } from './position.js';
import { yamlPackage } from './yaml-package.js';

export type { Place } from './position.js';

/**
 * Finds where a data path (`['required_path', 'relations', 1]`) stands in a parsed YAML (or JSON) document: the
 * node's start, or with `key` the start of that key within the mapping at the path. Walks as deep as the document
 * goes, so a missing node is placed at its nearest existing parent.
 */
export function locate(
  doc: Document,
  lines: LineCounter,
  path: readonly string[],
  key?: string,
): Place | undefined {
  const offset = locateOffset(doc, path, key);
  return offset === undefined ? undefined : place(lines, offset);
}

/** Where `locate` places a data path, as an offset in the document's text. */
export function locateOffset(doc: Document, path: readonly string[], key?: string): number | undefined {
  const { node } = walk(doc, path);
  return (key === undefined ? undefined : keyStart(node, key)) ?? node?.range?.[0];
}

/** Where `key` of the mapping at exactly `path` starts, as an offset in the document's text; undefined if none. */
export function keyOffset(doc: Document, path: readonly string[], key: string): number | undefined {
  const { node, whole } = walk(doc, path);
  return whole ? keyStart(node, key) : undefined;
}

/** The node at a data path, or the deepest one on it the document has, and whether that is the path's own. */
function walk(doc: Document, path: readonly string[]): { node: Node | undefined; whole: boolean } {
  let node: Node | undefined = yamlPackage().isNode(doc.contents) ? doc.contents : undefined;
  for (const segment of path) {
    const child = childOf(node, segment);
    if (!child) return { node, whole: false };
    node = child;
  }
  return { node, whole: true };
}

/** Where `key` of a mapping node starts, if it has that key. */
function keyStart(node: Node | undefined, key: string): number | undefined {
  const { isMap, isNode } = yamlPackage();
  if (!isMap(node)) return undefined;
  const pair = pairsOf(node).get(key);
  return pair && isNode(pair.key) ? pair.key.range?.[0] : undefined;
}

/** The last few JSON texts placed, with their locators: callers that place many problems in one text scan it once. */
const recent: Array<{ text: string; locator: JsonLocator }> = [];
const RECENT = 4;

/**
 * `locate` for a JSON text that was parsed without positions. The text is scanned once, on its first problem (see
 * `jsonLocator`), and its locator kept for the next calls; a caller that holds the text can also keep
 * `jsonLocator(text)` itself.
 */
export function locateInJson(text: string, path: readonly string[], key?: string): Place | undefined {
  let hit = recent.find((r) => r.text === text);
  if (!hit) {
    hit = { text, locator: jsonLocator(text) };
    recent.unshift(hit);
    if (recent.length > RECENT) recent.pop();
  }
  return hit.locator(path, key);
}

function childOf(node: Node | undefined, segment: string): Node | undefined {
  const { isMap, isNode, isSeq } = yamlPackage();
  if (isSeq(node)) {
    const item = node.items[Number(segment)];
    return isNode(item) ? item : undefined;
  }
  if (isMap(node)) {
    const pair = pairsOf(node).get(segment);
    return pair && isNode(pair.value) ? pair.value : undefined;
  }
  return undefined;
}

/** A mapping's pairs by key text, built once per mapping: placing n problems in a mapping of n keys is linear. */
const pairIndex = new WeakMap<object, Map<string, Pair>>();

function pairsOf(node: { items: unknown[] }): Map<string, Pair> {
  let index = pairIndex.get(node);
  if (!index) {
    index = new Map();
    for (const pair of node.items as Pair[]) {
      const text = scalarText(pair.key);
      // The first pair of a key wins, as a search from the start found it.
      if (text !== undefined && !index.has(text)) index.set(text, pair);
    }
    pairIndex.set(node, index);
  }
  return index;
}

/** A key as the document's value spells it (the `yaml` package's `toJS`: a null key is ""). */
function scalarText(key: unknown): string | undefined {
  if (yamlPackage().isNode(key) && 'value' in key) {
    const value = (key as { value: unknown }).value;
    return value === null ? '' : String(value);
  }
  return key === null || key === undefined ? undefined : String(key);
}

function place(lines: LineCounter, offset: number): Place {
  const pos = lines.linePos(offset);
  return { line: pos.line, column: pos.col };
}
