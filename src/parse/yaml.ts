// A YAML file as needlework reads it: js-yaml's values (src/parse/yaml-read.ts), every node's place, and, when the
// whole text cannot be read, its top-level lists read item by item (src/parse/yaml-items.ts), so that one broken item
// (a case) is reported at its place and the rest of the file still reads.
import { type Diagnostic, UserError } from '../errors/index.js';
import { LineIndex, type Place } from './position.js';
import { topLists, withoutItems } from './yaml-items.js';
import { atOf, readYamlNodes, YamlError, type YamlNode, type YamlRead } from './yaml-read.js';

export { MAX_ALIAS_NODES, TOO_MANY_ALIASED } from './yaml-read.js';

/** How many YAML errors of one file are reported, each placed; the rest are counted. */
export const MAX_YAML_ERRORS = 1000;

/** A YAML document's value, and where its nodes are written. */
export interface ParsedYaml {
  value: unknown;
  places: YamlPlaces;
}

/** An item of a top-level list that could not be read, with its problem; the document holds null in its place. */
export interface BrokenItem {
  /** The root key whose list it is in (`cases`), or undefined for a document that is a list. */
  list: string | undefined;
  index: number;
  /** The line of its `-`. */
  line: number;
  diagnostics: Diagnostic[];
}

/**
 * Reads one YAML document, or throws a `UserError` with every problem found, each at its line and column: a syntax
 * error, a duplicate key, a tag outside the core schema, nesting deeper than `MAX_DEPTH`, aliases past
 * `MAX_ALIAS_NODES`, a second document.
 */
export function parseYaml(text: string, file: string): ParsedYaml {
  const { broken, ...parsed } = readYaml(text, file);
  if (broken.length > 0)
    throw new UserError(
      capped(
        broken.flatMap((item) => item.diagnostics),
        file,
      ),
    );
  return parsed;
}

/**
 * Reads one YAML document; where js-yaml cannot read it whole, reads what it can of it. A text whose problem stands in
 * an item of a list at its top (`cases:`) is read again without those lists' items, and each item alone: the items that
 * cannot be read are returned as `broken`, null in the value, and the others read as written (but an alias of an
 * anchor outside its item, which an item read alone cannot see). Throws a `UserError` when the problem stands outside
 * such an item, when the rest of the document cannot be read either (with every problem found), and when the item
 * that holds the problem reads alone (it is the document's whole, then).
 */
export function readYaml(text: string, file: string): ParsedYaml & { broken: BrokenItem[] } {
  let lines: LineIndex | undefined;
  const index = () => {
    lines ??= new LineIndex(text, { yaml: true });
    return lines;
  };
  const diagnostic = (error: YamlError): Diagnostic => ({
    file,
    ...placeOf(index(), error.offset),
    message: error.message,
  });
  let read: YamlRead;
  try {
    read = readYamlNodes(text);
  } catch (error) {
    if (!(error instanceof YamlError)) throw error;
    const recovered = readItems(text, error);
    if (!recovered) throw new UserError(diagnostic(error));
    if ('errors' in recovered) throw new UserError(capped(recovered.errors.map(diagnostic), file));
    const broken = recovered.broken.map(
      (b): BrokenItem => ({
        list: b.list,
        index: b.index,
        line: index().position(b.at).line,
        diagnostics: [diagnostic(b.error)],
      }),
    );
    return { value: recovered.value, places: new YamlPlaces(recovered.root, index), broken };
  }
  return { value: read.value, places: new YamlPlaces(read.root, index), broken: [] };
}

/** The first `MAX_YAML_ERRORS` diagnostics, and a last line counting the others. */
function capped(diagnostics: Diagnostic[], file: string): Diagnostic[] {
  if (diagnostics.length <= MAX_YAML_ERRORS) return diagnostics;
  return [
    ...diagnostics.slice(0, MAX_YAML_ERRORS),
    { file, message: `and ${diagnostics.length - MAX_YAML_ERRORS} more YAML errors` },
  ];
}

type Recovered =
  | {
      value: unknown;
      root: YamlNode | undefined;
      broken: Array<{ list: string | undefined; index: number; at: number; error: YamlError }>;
    }
  | { errors: YamlError[] };

/**
 * A text that failed whole (`failure`), read as its top-level lists' items, each alone, and the rest without them: the
 * errors of the rest and of every item when the rest fails, else the value with each item that failed left null.
 * Undefined where that does not explain the failure: no list, or no item that fails at or before it.
 */
function readItems(text: string, failure: YamlError): Recovered | undefined {
  const lists = topLists(text);
  if (lists.length === 0) return undefined;
  const items = lists.flatMap((list) => list.items);
  let rest: YamlRead | YamlError;
  try {
    rest = readYamlNodes(withoutItems(text, lists));
  } catch (error) {
    if (!(error instanceof YamlError)) throw error;
    rest = error;
  }
  const reads = items.map((item) => {
    try {
      return readYamlNodes(text.slice(item.start, item.end), item.start);
    } catch (error) {
      if (!(error instanceof YamlError)) throw error;
      // The item that holds the failure fails there, in its context; another where it fails alone.
      return item.start <= failure.offset && failure.offset < item.end ? failure : error;
    }
  });
  const errors = reads.filter((r) => r instanceof YamlError);
  if (rest instanceof YamlError) return { errors: [rest, ...errors].sort((a, b) => a.offset - b.offset) };
  // js-yaml reads in order: what failed at `failure` was written before it. An item there that fails alone explains it;
  // where none does, the failure is the document's (an item that reads alone but not where it stands).
  if (!items.some((item, k) => item.start <= failure.offset && reads[k] instanceof YamlError))
    return undefined;
  // Each item's value and nodes set into the list it stands in (its `-` for an item that failed).
  const broken: Array<{ list: string | undefined; index: number; at: number; error: YamlError }> = [];
  let next = 0;
  for (const list of lists) {
    const value = list.key === undefined ? rest.value : property(rest.value, list.key);
    const node = list.key === undefined ? rest.root : entryNode(rest.root, list.key);
    if (
      !Array.isArray(value) ||
      value.length !== list.items.length ||
      typeof node !== 'object' ||
      !node.items
    )
      return undefined;
    for (const [i, item] of list.items.entries()) {
      const read = reads[next++]!;
      if (read instanceof YamlError) {
        broken.push({ list: list.key, index: i, at: item.dash, error: read });
        node.items[i] = item.dash;
        continue;
      }
      if (!Array.isArray(read.value) || read.value.length !== 1) return undefined;
      value[i] = read.value[0];
      node.items[i] = typeof read.root === 'object' ? read.root.items?.[0] : undefined;
    }
  }
  return { value: rest.value, root: rest.root, broken };
}

/** A mapping's own property, or undefined. */
function property(value: unknown, key: string): unknown {
  return value !== null && typeof value === 'object' && Object.hasOwn(value, key)
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The node of `key`'s value in a mapping's node. */
function entryNode(node: YamlNode | undefined, key: string): YamlNode | undefined {
  const entries = typeof node === 'object' ? node.entries : undefined;
  if (!entries) return undefined;
  for (let i = 0; i < entries.length; i += 3)
    if (entries[i] === key) return entries[i + 2] as YamlNode | undefined;
  return undefined;
}

function placeOf(lines: LineIndex, offset: number): Place {
  const { line, column } = lines.position(offset);
  return { line, column };
}

/** Where the parts of a YAML document are written, by data path (`['cases', '3', 'expect']`). */
export class YamlPlaces {
  constructor(
    private readonly root: YamlNode | undefined,
    private readonly lines: () => LineIndex,
  ) {}

  /**
   * Where the node at a data path is written, or with `key` that key of the mapping at the path; a path that leaves
   * the document is placed at its deepest node (a missing key at the mapping that lacks it).
   */
  where(path: readonly string[], key?: string): Place | undefined {
    const { node } = this.walk(path);
    if (node === undefined) return undefined;
    const at = key === undefined ? undefined : keyNode(node, key);
    return placeOf(this.lines(), at === undefined ? atOf(node) : atOf(at));
  }

  /** Where `key` of the mapping at exactly `path` is written; undefined when the document writes no such key. */
  keyAt(path: readonly string[], key: string): Place | undefined {
    const { node, whole } = this.walk(path);
    const at = whole && node !== undefined ? keyNode(node, key) : undefined;
    return at === undefined ? undefined : placeOf(this.lines(), atOf(at));
  }

  /** The node at a data path, or the deepest one on it, and whether that is the path's own. */
  private walk(path: readonly string[]): { node: YamlNode | undefined; whole: boolean } {
    let node = this.root;
    for (const segment of path) {
      const child = typeof node === 'object' ? childNode(node, segment) : undefined;
      if (child === undefined) return { node, whole: false };
      node = child;
    }
    return { node, whole: true };
  }
}

function childNode(node: YamlNode & object, segment: string): YamlNode | undefined {
  if (node.items) return /^(?:0|[1-9][0-9]*)$/.test(segment) ? node.items[Number(segment)] : undefined;
  return node.entries ? entryNode(node, segment) : undefined;
}

/** Where `key` of a mapping's node is written (the first time, if it is written twice). */
function keyNode(node: YamlNode, key: string): YamlNode | undefined {
  const entries = typeof node === 'object' ? node.entries : undefined;
  if (!entries) return undefined;
  for (let i = 0; i < entries.length; i += 3) if (entries[i] === key) return entries[i + 1] as YamlNode;
  return undefined;
}
