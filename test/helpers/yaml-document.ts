// The `yaml` package (a dev dependency only) as the differential tests' reference: where its Document places a data
// path, and the value it reads with its YAML 1.2 core schema.
import {
  isMap,
  isNode,
  isScalar,
  isSeq,
  LineCounter,
  type Node,
  type Pair,
  parseDocument,
  visit,
} from 'yaml';
import type { Place } from '../../src/parse/position.js';

/**
 * Where the `yaml` Document of `text` places a data path: the node's start, or with `key` that key's start in the
 * mapping at the path; a path that leaves the document at its deepest node on the path.
 */
export function documentPlaces(text: string): (path: readonly string[], key?: string) => Place | undefined {
  const lines = new LineCounter();
  const doc = parseDocument(text, { lineCounter: lines });
  const place = (offset: number | undefined): Place | undefined => {
    if (offset === undefined) return undefined;
    const { line, col } = lines.linePos(offset);
    return { line, column: col };
  };
  return (path, key) => {
    let node: Node | undefined = isNode(doc.contents) ? doc.contents : undefined;
    for (const segment of path) {
      const child = childOf(node, segment);
      if (!child) break;
      node = child;
    }
    const keyNode = key === undefined || !isMap(node) ? undefined : pairOf(node.items, key)?.key;
    return place(isNode(keyNode) ? keyNode.range?.[0] : node?.range?.[0]);
  };
}

/**
 * The value the `yaml` package reads from `text` (its first document, core schema), a null key spelled "null" as
 * js-yaml spells it (the yaml package's is ""), or `rejected` for any error.
 */
export function documentValue(text: string): { value: unknown } | 'rejected' {
  const doc = parseDocument(text, { uniqueKeys: true, logLevel: 'silent' });
  if (doc.errors.length > 0) return 'rejected';
  visit(doc, {
    Pair(_, pair) {
      if (isScalar(pair.key) && pair.key.value === null) pair.key.value = 'null';
    },
  });
  try {
    return { value: doc.toJS({ maxAliasCount: -1 }) };
  } catch {
    return 'rejected';
  }
}

function childOf(node: Node | undefined, segment: string): Node | undefined {
  if (isSeq(node)) {
    const item = node.items[Number(segment)];
    return isNode(item) ? item : undefined;
  }
  if (isMap(node)) {
    const value = pairOf(node.items, segment)?.value;
    return isNode(value) ? value : undefined;
  }
  return undefined;
}

/** The first pair whose key reads as `key` (a null key as "null", as js-yaml spells it). */
function pairOf(pairs: readonly Pair[], key: string): Pair | undefined {
  return pairs.find((pair) => {
    const value = isScalar(pair.key) ? pair.key.value : pair.key;
    return String(value) === key;
  });
}
