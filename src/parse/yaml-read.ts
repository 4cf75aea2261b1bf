// Reads one YAML text with js-yaml (its YAML 1.2 core schema), and records as it reads where each node is written:
// the places of diagnostics and of every check's criterion. js-yaml tells a listener when it opens and closes each
// node; the listener also bounds what a document may cost its readers (depth, aliases) while js-yaml reads it.
import { CORE_SCHEMA, type LoadOptions, load, type State } from 'js-yaml';
import { MAX_DEPTH, TOO_DEEP } from './depth.js';

/**
 * The most nodes the aliases of one document may repeat (each alias counts the nodes of what it names, aliases in it
 * included). js-yaml shares one value for each anchor, but whatever walks the document (the schema check, the cases'
 * builder, a reporter) walks every repetition: a "billion laughs" file of a few lines would hold 10^9 nodes.
 */
export const MAX_ALIAS_NODES = 100_000;

/** What a document past that limit is told, at the alias that passes it. */
export const TOO_MANY_ALIASED = `cannot expand the document: its aliases repeat more than ${MAX_ALIAS_NODES.toLocaleString('en-US')} nodes (a "billion laughs" document?); needlework reads no further`;

/**
 * Where a node is written: a scalar's (or an alias's) offset, or a collection with the places of its parts. Offsets
 * are UTF-16 offsets of the whole text, at the node's first character past its anchor and tag.
 */
export type YamlNode = number | YamlCollection;

export interface YamlCollection {
  at: number;
  /** A list's items, each undefined where it was not placed (an empty item, which js-yaml reads without a node). */
  items?: Array<YamlNode | undefined>;
  /**
   * A mapping's entries, flat: key, where the key is written, the value's node (undefined for none). Undefined when its
   * keys could not all be matched to the mapping's (then only the mapping itself is placed).
   */
  entries?: Array<string | YamlNode | undefined>;
}

/** A problem that stops the reading of a text, at its offset. */
export class YamlError extends Error {
  constructor(
    readonly offset: number,
    message: string,
  ) {
    super(message);
  }
}

/** One document's value, and where its nodes are written (undefined for an empty document). */
export interface YamlRead {
  value: unknown;
  root: YamlNode | undefined;
}

/** js-yaml's own bound on nesting: above ours (a list item may take two of its levels), below its stack's reach. */
const JS_YAML_MAX_DEPTH = 2 * MAX_DEPTH + 8;

/** Errors js-yaml marks after the node they are about (its tag or alias): placed at that node instead. */
const NODE_ERRORS = /^(?:unknown tag|cannot resolve a node|unacceptable node kind|unidentified alias)/;

/**
 * Reads one YAML document. `base` is the offset of `text` in the file it was cut from (every offset recorded is the
 * file's). Throws a `YamlError` at the first problem: a syntax error or a duplicate key (js-yaml's own words), a tag
 * outside the core schema, a second document, a collection as a mapping key, nesting deeper than `MAX_DEPTH`, an
 * alias inside the node it names, or aliases past `MAX_ALIAS_NODES`.
 */
export function readYamlNodes(text: string, base = 0): YamlRead {
  // js-yaml drops a byte-order mark before it reads: its positions are one short of the text's.
  const bom = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const shift = base + bom;
  const reader = new NodeReader(shift);
  let value: unknown;
  try {
    value = load(text, {
      schema: CORE_SCHEMA,
      listener: reader.listener,
      maxDepth: JS_YAML_MAX_DEPTH,
    } as LoadOptions);
  } catch (error) {
    if (error instanceof YamlError) throw error;
    const reason = (error as { reason?: unknown }).reason;
    const mark = (error as { mark?: { position?: unknown } }).mark;
    if (typeof reason !== 'string' || typeof mark?.position !== 'number') {
      // A stack that js-yaml's own bound did not keep (never seen): a user's file all the same.
      if (error instanceof RangeError) throw new YamlError(base, TOO_DEEP);
      throw error;
    }
    if (reason.startsWith('nesting exceeded maxDepth')) throw new YamlError(reader.innermost(), TOO_DEEP);
    // An error at the end of the text (an unclosed bracket or quote) is placed just past what it writes.
    const at = NODE_ERRORS.test(reason)
      ? reader.innermost()
      : Math.min(mark.position + bom, contentEnd(text)) + base;
    const key = reason === 'duplicated mapping key' ? keyAt(text, mark.position + bom) : '';
    throw new YamlError(at, `not valid YAML: ${reason}${key}`);
  }
  // An empty text is no document to js-yaml; it is an empty one (null), as a text of comments is.
  return { value: value === undefined ? null : value, root: reader.root };
}

/** Just past the text's last character that is no white space. */
function contentEnd(text: string): number {
  let i = text.length;
  while (i > 0 && /\s/.test(text[i - 1]!)) i--;
  return i;
}

/** ` "key"`: the key written at `at` (js-yaml marks a duplicate at it) as written, or nothing past 200 characters. */
function keyAt(text: string, at: number): string {
  const key = /^(?:"[^"\\\r\n]*"|'[^'\r\n]*'|[^\s:#,[\]{}"'][^:#\r\n]*?)(?=[ \t]*:(?:[ \t]|$))/m.exec(
    text.slice(at, at + 200),
  );
  if (!key) return '';
  return key[0].startsWith('"') || key[0].startsWith("'") ? ` ${key[0]}` : ` "${key[0]}"`;
}

/**
 * The listener's state: the nodes open (one frame a level, reused) and the nodes closed in each, kept on one stack of
 * parallel arrays until their parent closes (no object a node: a 10,000-case file has 200,000 of them).
 */
class NodeReader {
  root: YamlNode | undefined;
  private documents = 0;
  private depth = 0;
  // The open nodes, by level: where each is written, where its properties start, where it would be placed if empty,
  // how many collections hold it, the alias it is (or undefined), and where its children start on the stack below.
  private readonly at: number[] = [];
  private readonly propsAt: number[] = [];
  private readonly near: number[] = [];
  private readonly levels: number[] = [];
  private readonly alias: Array<string | undefined> = [];
  private readonly kidsFrom: number[] = [];
  private readonly aliasesFrom: number[] = [];
  // The closed children of the open nodes: each one's node, value, end (js-yaml's position) and size (the nodes it
  // holds, with what its aliases repeat).
  private kidNode: YamlNode[] = [];
  private kidValue: unknown[] = [];
  private kidEnd: number[] = [];
  private kidSize: number[] = [];
  private kids = 0;
  /** Each anchor's size, as of its last node read. */
  private readonly anchorSize = new Map<string, number>();
  /** The aliases of collections read, in order: where each is written and the value it names. */
  private readonly aliasAt: number[] = [];
  private readonly aliasValue: object[] = [];
  /** The nodes repeated by aliases so far. */
  private repeated = 0;

  constructor(private readonly shift: number) {}

  /** Where the innermost open node's properties start (or the text's start). */
  innermost(): number {
    return this.depth > 0 ? this.propsAt[this.depth - 1]! : this.shift;
  }

  readonly listener = (event: 'open' | 'close', state: State): void => {
    if (event === 'open') this.open(state);
    else this.close(state);
  };

  private open(state: State): void {
    const input = state.input;
    const level = this.depth;
    if (level === 0 && this.documents++ > 0) {
      // js-yaml reads every document before it says there are several, and says nowhere where.
      throw new YamlError(
        documentStart(input, state.position) + this.shift,
        'a second YAML document starts here; a spec file holds one',
      );
    }
    // Where it is written, past its anchor and tag; and where it stands if it is empty: past them on their line.
    let near = spacesAfter(input, state.position);
    const props = contentStart(input, state.position);
    let at = props;
    let c = input.charCodeAt(at);
    while (c === 0x26 /* & */ || c === 0x21 /* ! */) {
      const end = tokenEnd(input, at);
      near = spacesAfter(input, end);
      at = contentStart(input, end);
      c = input.charCodeAt(at);
    }
    this.at[level] = at + this.shift;
    this.propsAt[level] = props + this.shift;
    this.near[level] = near + this.shift;
    this.alias[level] = c === 0x2a /* * */ ? input.slice(at + 1, tokenEnd(input, at + 1)) : undefined;
    this.kidsFrom[level] = this.kids;
    this.aliasesFrom[level] = this.aliasAt.length;
    // How many collections hold this node: its parent is one (it holds a node), unless the parent is the item or
    // explicit key that js-yaml opens around a node as a node of its own, at the same place.
    let levels = 0;
    if (level > 0) {
      const parent = level - 1;
      const counted = this.at[parent]! !== at + this.shift ? 1 : 0;
      levels = this.levels[parent]! + counted;
      if (levels > MAX_DEPTH) throw new YamlError(this.at[parent]!, TOO_DEEP);
    }
    this.levels[level] = levels;
    this.depth++;
  }

  private close(state: State): void {
    const level = --this.depth;
    const value = state.result as unknown;
    const from = this.kidsFrom[level]!;
    const count = this.kids - from;
    const at = this.at[level]!;
    let node: YamlNode;
    let size: number;
    let empty = false;
    if (count === 1 && Object.is(this.kidValue[from], value) && atOf(this.kidNode[from]!) === at) {
      // The item or explicit key js-yaml opens around a node: that node.
      node = this.kidNode[from]!;
      size = this.kidSize[from]!;
    } else if (this.alias[level] !== undefined) {
      node = at;
      size = this.anchorSize.get(this.alias[level]) ?? 1;
      this.repeated += size;
      if (this.repeated > MAX_ALIAS_NODES) throw new YamlError(at, TOO_MANY_ALIASED);
      if (value !== null && typeof value === 'object') {
        this.aliasAt.push(at);
        this.aliasValue.push(value);
      }
    } else if (value === null || typeof value !== 'object') {
      // An empty node (js-yaml read nothing at its place) is placed where it would be written: after its key's `:`,
      // its anchor or its tag.
      empty = state.position + this.shift <= at;
      node = empty ? this.near[level]! : at;
      size = 1;
    } else {
      if (this.levels[level]! + 1 > MAX_DEPTH) throw new YamlError(at, TOO_DEEP);
      size = 1;
      for (let k = from; k < this.kids; k++) size += this.kidSize[k]!;
      node = Array.isArray(value)
        ? this.list(at, value, from, state.input)
        : this.mapping(at, value, from, state.input);
      if (Array.isArray(value)) size += value.length - count;
    }
    const anchor = (state as State & { anchor: string | null }).anchor;
    if (anchor !== null && anchor !== undefined && this.alias[level] === undefined) {
      if (value !== null && typeof value === 'object') this.refuseCycle(value, level);
      this.anchorSize.set(anchor, size);
    }
    // Its children leave the stack; it takes their place.
    this.kids = from;
    if (level === 0) {
      // An empty document is placed nowhere.
      this.root = empty ? undefined : node;
      return;
    }
    this.kidNode[from] = node;
    this.kidValue[from] = value;
    this.kidEnd[from] = state.position;
    this.kidSize[from] = size;
    this.kids = from + 1;
  }

  /** A list's items, matched to the nodes read in it in order (an empty item js-yaml reads without one). */
  private list(at: number, value: unknown[], from: number, input: string): YamlCollection {
    if (value.length > this.kids - from) this.refuseItemReadInto(at, from, input);
    const items = new Array<YamlNode | undefined>(value.length);
    let k = from;
    for (let i = 0; i < value.length; i++) {
      if (k < this.kids && Object.is(this.kidValue[k], value[i])) items[i] = this.kidNode[k++];
    }
    return { at, items };
  }

  /**
   * Refuses a block list with an empty item (`-` and nothing after it) followed by an item indented less: js-yaml
   * reads that item into this list where YAML ends the list before it (`calls:` of one case, then `- id: b`, the
   * next case, read as one more call). Found by the items read in it whose `-` stands left of the list's.
   */
  private refuseItemReadInto(at: number, from: number, input: string): void {
    const dash = at - this.shift;
    if (input.charCodeAt(dash) !== 0x2d /* - */) return;
    const column = dash - lineStart(input, dash);
    for (let k = from; k < this.kids; k++) {
      const item = atOf(this.kidNode[k]!) - this.shift;
      const start = lineStart(input, item);
      const indent = spacesAfter(input, start);
      if (indent - start < column && indent < item && input.charCodeAt(indent) === 0x2d)
        throw new YamlError(
          indent + this.shift,
          'an item indented less than the list before it, whose last item is empty: js-yaml would read it into that list; write the empty item as `- null`, or remove it',
        );
    }
  }

  /**
   * A mapping's entries: its children are keys, each followed by its value where a `:` follows the key. Kept only
   * where the keys read are the mapping's own, each once; a collection as a key is refused.
   */
  private mapping(at: number, value: object, from: number, input: string): YamlCollection {
    const entries: Array<string | YamlNode | undefined> = [];
    let collectionKey = -1;
    let k = from;
    while (k < this.kids) {
      const key = this.kidValue[k];
      const keyNode = this.kidNode[k]!;
      if (key !== null && typeof key === 'object' && collectionKey === -1) collectionKey = atOf(keyNode);
      const paired = k + 1 < this.kids && colonAfter(input, this.kidEnd[k]!);
      entries.push(String(key), keyNode, paired ? this.kidNode[k + 1] : undefined);
      k += paired ? 2 : 1;
    }
    // Counted, not listed: no array of keys a mapping.
    let keys = 0;
    for (const key in value) if (Object.hasOwn(value, key)) keys++;
    let matched = keys === entries.length / 3;
    for (let i = 0; matched && i < entries.length; i += 3)
      matched = Object.hasOwn(value, entries[i] as string);
    if (!matched) return { at };
    if (collectionKey !== -1)
      throw new YamlError(
        collectionKey,
        'a list or mapping cannot be a key: needlework reads keys as text, numbers, true, false or null',
      );
    return { at, entries };
  }

  /** Refuses an anchored collection that holds an alias of itself: the document would hold itself without end. */
  private refuseCycle(value: object, level: number): void {
    for (let i = this.aliasesFrom[level]!; i < this.aliasAt.length; i++)
      if (this.aliasValue[i] === value)
        throw new YamlError(
          this.aliasAt[i]!,
          'an alias inside the node it names: the document would hold itself without end',
        );
  }
}

/** Where a node is written. */
export function atOf(node: YamlNode): number {
  return typeof node === 'number' ? node : node.at;
}

/** The start of the line that holds `at`. */
function lineStart(input: string, at: number): number {
  let i = at;
  while (i > 0 && input.charCodeAt(i - 1) !== 0x0a && input.charCodeAt(i - 1) !== 0x0d) i--;
  return i;
}

/** Past the spaces and tabs at `from`. */
function spacesAfter(input: string, from: number): number {
  let i = from;
  for (let c = input.charCodeAt(i); c === 0x20 || c === 0x09; c = input.charCodeAt(++i));
  return i;
}

/** Past the spaces, line breaks and comments at `from`: where js-yaml's next node or indicator stands. */
function contentStart(input: string, from: number): number {
  let i = from;
  for (;;) {
    const c = input.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */) {
      while (i < input.length && input.charCodeAt(i) !== 0x0a && input.charCodeAt(i) !== 0x0d) i++;
    } else return i;
  }
}

/** The end of an anchor, alias or tag starting at `from`: the first white space or flow indicator. */
function tokenEnd(input: string, from: number): number {
  let i = from;
  for (;;) {
    const c = input.charCodeAt(i);
    if (Number.isNaN(c) || c === 0 || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return i;
    if (c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) return i;
    i++;
  }
}

/** Whether a `:` follows `from`, past spaces, line breaks and comments: the node that ends there was a key. */
function colonAfter(input: string, from: number): boolean {
  return input.charCodeAt(contentStart(input, from)) === 0x3a;
}

/** The start of the `---` line before `at` (the second document's marker), or `at` where there is none. */
function documentStart(input: string, at: number): number {
  const marker = input.lastIndexOf('---', at);
  if (marker === -1) return at;
  const previous = input.charCodeAt(marker - 1);
  return marker === 0 || previous === 0x0a || previous === 0x0d ? marker : at;
}
