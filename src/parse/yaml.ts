// A YAML file as needlework reads it: js-yaml's values (src/parse/yaml-read.ts), every node's place, and, when the
// whole text cannot be read, the items of its top-level lists that fail left out (src/parse/yaml-items.ts), so that
// one broken item (a case) is reported at its place and the rest of the file still reads.
import { type Diagnostic, UserError } from '../errors/index.js';
import { LineIndex, type Place } from './position.js';
import { type TopItem, topLists, withoutItems } from './yaml-items.js';
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
 * Reads one YAML document; where js-yaml cannot read it whole, reads what it can of it. When the problem stands in an
 * item of a list at the document's top (`cases:`), the items that fail (alone, or where they stand) are left out, each
 * with its problem, as `broken` (null in the value, placed at its `-`), and the document is read without them: the
 * other items read as written, with their places and aliases. Throws a `UserError` when the problem stands elsewhere
 * (with every problem found where the rest of the document fails too).
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

/** How many times a text is read again with one more item left out before its first failure is all it says. */
const MAX_ROUNDS = 8;

/** One item of a top-level list, and where it stands. */
interface Entry {
  list: string | undefined;
  index: number;
  item: TopItem;
}

/**
 * A text that failed whole (`failure`), read again with some items of its top-level lists left out (blanked: every
 * other offset stays the file's): each item that fails alone and holds the failure or stands after it, and the last
 * one before it that fails alone (an unclosed bracket or quote that js-yaml read on to the failure). Everything before
 * the failure read where it stands: an item there that fails alone only for the way it was cut from its text reads
 * there again, and an item that fails alone for an alias of an anchor outside it is read where it stands. The value,
 * with each item left out null, and the errors of those items (the item that holds the failure fails with it); when
 * the rest fails too, after the failure, every error found. Undefined where that does not explain the failure: no
 * item at or before it left out, a reading that fails before it (the items were not cut as js-yaml reads them), or one
 * the lists do not match.
 */
function readItems(text: string, failure: YamlError): Recovered | undefined {
  const lists = topLists(text);
  const entries = lists.flatMap((list) =>
    list.items.map((item, index): Entry => ({ list: list.key, index, item })),
  );
  const holds = (entry: Entry, error: YamlError) =>
    entry.item.start <= error.offset && error.offset < entry.item.end;
  const left = new Map<Entry, YamlError>();
  let before: [Entry, YamlError] | undefined;
  for (const entry of entries) {
    try {
      // Under a key of its own, as its list stands: js-yaml says what it would say there.
      const head = entry.list === undefined ? '' : 'k:\n';
      readYamlNodes(head + text.slice(entry.item.start, entry.item.end), entry.item.start - head.length);
    } catch (error) {
      if (!(error instanceof YamlError)) throw error;
      if (error.message.startsWith(UNKNOWN_ALIAS)) continue;
      if (holds(entry, failure)) left.set(entry, failure);
      else if (entry.item.end <= failure.offset) before = [entry, error];
      else left.set(entry, error);
    }
  }
  if (before) left.set(...before);
  for (let round = 0; round < MAX_ROUNDS; round++) {
    let read: YamlRead;
    try {
      read = readYamlNodes(
        withoutItems(
          text,
          [...left.keys()].map((entry) => entry.item),
        ),
      );
    } catch (error) {
      if (!(error instanceof YamlError)) throw error;
      // Before the failure, only an alias of an item left out may fail; after it, an item that fails where it stands
      // (a limit passed there) is left out in turn, and the rest's own error is the file's, with the items'.
      const entry = entries.find((e) => holds(e, error));
      if (error.offset < failure.offset && !error.message.startsWith(UNKNOWN_ALIAS)) return undefined;
      if (entry && !left.has(entry)) {
        left.set(entry, error);
        continue;
      }
      if (entry) return undefined;
      const errors = new Set([failure, ...left.values()]);
      if (error.offset !== failure.offset) errors.add(error);
      return { errors: [...errors].sort((a, b) => a.offset - b.offset) };
    }
    // js-yaml reads in order: what failed at `failure` was written before it.
    if (![...left.keys()].some((entry) => entry.item.start <= failure.offset)) return undefined;
    for (const list of lists) {
      const value = list.key === undefined ? read.value : property(read.value, list.key);
      if (!Array.isArray(value) || value.length !== list.items.length) return undefined;
    }
    const broken = [...left]
      .sort(([a], [b]) => a.item.start - b.item.start)
      .map(([entry, error]) => {
        // An item left out is placed at its `-`.
        const node = entry.list === undefined ? read.root : entryNode(read.root, entry.list);
        if (typeof node === 'object' && node.items) node.items[entry.index] = entry.item.dash;
        return { list: entry.list, index: entry.index, at: entry.item.dash, error };
      });
    return { value: read.value, root: read.root, broken };
  }
  return undefined;
}

/** js-yaml's words for an alias of no anchor it has read. */
const UNKNOWN_ALIAS = 'not valid YAML: unidentified alias';

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
