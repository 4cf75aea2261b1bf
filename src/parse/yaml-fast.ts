// A lighter parse path for large YAML files: js-yaml builds only the values (the `yaml` package's Document of a
// 5 MB cases file costs about 500 MB at its peak, its CST alone about 350 MB), and remembers where the collections
// near the root start. It resolves scalars exactly as the `yaml` package's YAML 1.2 core schema does, and gives up
// (returns undefined) on everything whose meaning it does not pin down the same way: an alias inside the node it names
// (the `yaml` path weighs that node whole for its alias limit, which this path applies to every other alias), aliases
// as keys, tags the two parsers read apart, an empty block list item that a less indented item follows,
// directives other than `%YAML 1.2`, keys that only `yaml` spells differently, and any error. The caller then takes
// the `yaml` path, so what that path reports stays the single source of diagnostics.
import { FAILSAFE_SCHEMA, type LoadOptions, load, type State, Type } from 'js-yaml';
import { UserError } from '../errors/index.js';
import { LineIndex } from './position.js';
import { EXCESSIVE_ALIASES, MAX_YAML_ALIASES } from './yaml.js';
import { AliasInsideItsAnchor, AliasLimit, type Anchored } from './yaml-aliases.js';
import { DUPLICATE_KEY, yamlErrors } from './yaml-errors.js';
import type { FastFailure, FastYaml, ReadList } from './yaml-fast-types.js';
import { readAroundItem } from './yaml-item-window.js';
import { cutShort, cutShortAt } from './yaml-lexer.js';
import { yamlErrorsInWindows } from './yaml-window.js';

export type { FastFailure, FastYaml, ReadList } from './yaml-fast-types.js';

// The YAML 1.2 core schema's scalars, with the tests and conversions of the `yaml` package (yaml/dist/schema/core).
const nullType = new Type('tag:yaml.org,2002:null', {
  kind: 'scalar',
  resolve: (s: string) => /^(?:~|[Nn]ull|NULL)?$/.test(s),
  construct: () => null,
});
const boolType = new Type('tag:yaml.org,2002:bool', {
  kind: 'scalar',
  resolve: (s: string) => /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s),
  construct: (s: string) => s[0] === 't' || s[0] === 'T',
});
const intType = new Type('tag:yaml.org,2002:int', {
  kind: 'scalar',
  resolve: (s: string) => /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/.test(s),
  construct: (s: string) =>
    s.startsWith('0o')
      ? parseInt(s.slice(2), 8)
      : s.startsWith('0x')
        ? parseInt(s.slice(2), 16)
        : parseInt(s, 10),
});
const floatType = new Type('tag:yaml.org,2002:float', {
  kind: 'scalar',
  resolve: (s: string) =>
    /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+|[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*))$/.test(
      s,
    ),
  construct: (s: string) =>
    /nan$/i.test(s) ? Number.NaN : /inf$/i.test(s) ? (s[0] === '-' ? -Infinity : Infinity) : parseFloat(s),
});
/**
 * What the `yaml` package makes of a tag it does not resolve (`!local`, `!!unknown`, a core scalar tag whose rule does
 * not take the text, a scalar tag on a collection; yaml's compose-scalar.ts and compose-collection.ts): the node as
 * if untagged, but for a scalar, which stays the text it is written as. Only a warning, which needlework does not
 * show. js-yaml refuses such a node; these types read it as `yaml` does.
 */
const asWritten = (prefix: string, kind: 'scalar' | 'sequence' | 'mapping') =>
  new Type(prefix, { kind, multi: true, construct: (data: unknown) => data });
/** A core scalar tag written on a scalar: its rule's value where the rule takes the text, else the text. */
const explicit = ([name, type]: [string, Type]) =>
  new Type(`tag:yaml.org,2002:${name}`, {
    kind: 'scalar',
    construct: (s: string) => (type.resolve(s) ? type.construct(s) : s),
  });
const CORE_SCALARS: Array<[string, Type]> = [
  ['null', nullType],
  ['bool', boolType],
  ['int', intType],
  ['float', floatType],
];
const CORE = FAILSAFE_SCHEMA.extend({
  implicit: CORE_SCALARS.map(([, type]) => type),
  explicit: [
    ...CORE_SCALARS.map(explicit),
    ...(['scalar', 'sequence', 'mapping'] as const).flatMap((kind) => [
      asWritten('!', kind),
      asWritten('tag:yaml.org,2002:', kind),
    ]),
  ],
});

/** Thrown from the listener to stop at the first construct this path leaves to the `yaml` package. */
class NotFast extends Error {}

const LONE_CR = /\r(?!\n)/;
/** A line that starts with `%` (a directive, before a document). */
const DIRECTIVE = /^%/gm;
/** `%YAML 1.2` lines, blank and comment lines, then the document's `---`. */
const YAML_1_2_HEADER =
  /(?:%YAML 1\.2[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n)|[ \t]*(?:#[^\r\n]*)?(?:\r\n|\r|\n))*---(?=[ \t\r\n]|$)/y;

/**
 * Whether the text's directives (if any) leave its meaning to YAML 1.2 as both parsers read it: none, or `%YAML 1.2`
 * (the version both read by default) before the document's `---`. `%YAML 1.1` changes the schema and `%TAG` the
 * tags, which js-yaml does not honour as the `yaml` package does: such a text is that package's.
 */
function plainDirectives(text: string, from: number): boolean {
  DIRECTIVE.lastIndex = from;
  if (!DIRECTIVE.test(text)) return true;
  YAML_1_2_HEADER.lastIndex = from;
  if (!YAML_1_2_HEADER.test(text)) return false;
  DIRECTIVE.lastIndex = YAML_1_2_HEADER.lastIndex;
  return !DIRECTIVE.test(text);
}

/** What `loadYamlFast` records beside the values. */
export interface FastYamlOptions {
  /**
   * The file the text came from: given, a text whose only problem is duplicate keys, or aliases past the alias
   * limit, throws the `UserError` that `parseYaml` throws for it (see `duplicateKeys`), instead of being left to the
   * `yaml` package.
   */
  file?: string;
  /**
   * Told where js-yaml failed to read the text and the lists it was reading there: everything before the failure
   * reads alike to the two parsers, item by item, but for what `cutShort` finds and items cut from the anchors their
   * aliases name (what `yamlErrorsInWindows` builds on). Given `file` too, a large text's syntax errors are
   * read that way and thrown, instead of being left to the `yaml` package's reading of the whole text.
   */
  failed?(failure: FastFailure): void;
  /**
   * How many more items of a list this reading may read around (see `readAroundItem`), where one holds a construct
   * js-yaml reads apart: each costs a reading of the rest of the text.
   */
  around?: number;
}

/**
 * How many items of a list one text may be read around before it is left to the `yaml` package: each costs a reading
 * of a window by that package, and the light path's reading of the text around it (about twice the text in all).
 */
const MAX_AROUND = 8;

/**
 * A node being composed: where it starts, and the keys of the mapping it may turn out to be, each followed by its
 * start and its value's start (NaN until the value is composed, and for a null or unrecorded value): one flat list,
 * kept as the mapping's record (a 10,000-case file has 200,000 mappings, and a `Map` each held 50 MB).
 */
interface Frame {
  at: number;
  keys: Array<string | number> | undefined;
  /** How many values (nodes that are not keys) were composed in it. */
  values: number;
  /** Where each item of the list it may turn out to be starts (NaN for a null). */
  items: number[] | undefined;
  /** Where the `:` after its last key stands. */
  colon: number;
  /** The collections composed in it, in order, and their shapes (matched to its keys or items when it closes). */
  inner: unknown[] | undefined;
  innerShapes: Shape[] | undefined;
  /** The anchored node it is (`&name`), or undefined; `at` is past the anchor, where the `yaml` composer starts it. */
  anchored: Anchored | undefined;
  /** It is an alias (`*name`): its value is the anchored node's, its place its own. */
  alias: boolean;
  /** It carries a tag; `at` is past it, where the `yaml` composer starts the node. */
  tagged: boolean;
  /** A key of the mapping it may turn out to be is null, which js-yaml spells "null" and the `yaml` package "". */
  nullKey: boolean;
  /** js-yaml's line (from 0) when the node was opened: at or before the line the node starts on. */
  line: number;
}

/** A frame to be filled when a node opens. */
function blankFrame(): Frame {
  return {
    at: 0,
    keys: undefined,
    values: 0,
    items: undefined,
    colon: Number.NaN,
    inner: undefined,
    innerShapes: undefined,
    anchored: undefined,
    alias: false,
    tagged: false,
    nullKey: false,
    line: 0,
  };
}

/**
 * What was recorded of one collection, in a tree that mirrors the document and is walked by data path: no map keyed
 * by node (a `WeakMap` entry per mapping was half of this path's time on a 10,000-case file).
 */
interface Shape {
  /** Where it starts. */
  at: number;
  /** A mapping's keys (its frame's record); undefined for a list. */
  keys: Array<string | number> | undefined;
  /** A list's item starts, where they line up with its items. */
  items: number[] | undefined;
  /** The shapes of its collections, by key (a mapping) or item (a list); undefined where they do not line up. */
  children: Array<Shape | undefined> | undefined;
  /** An alias: `locate` in the Document places every path through it at the alias itself. */
  alias?: true;
}

/**
 * Parses one YAML document's values with js-yaml, recording where every node and every mapping key starts (a null
 * key spelled "", as the `yaml` package spells it). Undefined when the file needs the `yaml` package: a syntax error,
 * a duplicate key, an alias inside the node it names, an alias as a key, an anchored or tagged empty node, a tag
 * the two parsers read apart (see `lightTag`), an empty block list item that a less indented item follows (which
 * js-yaml reads into the list), a directive other than `%YAML 1.2`, a collection as a key, a flow collection or quoted
 * scalar over several lines that the `yaml` lexer cuts short (`cutShort`). With `file`, throws what `parseYaml` throws for a text
 * whose only problems are duplicate keys, where this path can place them, or aliases past the alias limit, or (for a
 * large text) syntax errors, read in windows around them (`yamlErrorsInWindows`).
 */
export function loadYamlFast(text: string, options: FastYamlOptions = {}): FastYaml | undefined {
  // js-yaml drops a byte-order mark before it reads: its offsets are one short of the text's.
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  if (!plainDirectives(text, shift)) return undefined;
  // A lone `\r` is a line ending to js-yaml and text to the `yaml` package (`a:\r- 1` is a mapping to one, a string
  // to the other): such a text is that package's.
  if (LONE_CR.test(text)) return undefined;
  let root: Shape | undefined;
  let rootStart = Number.NaN;
  let index: LineIndex | undefined;
  const lines = () => {
    index ??= new LineIndex(text);
    return index;
  };
  // A stack, not recursion of ours: js-yaml bounds the depth it composes (maxDepth). Its frames are reused, level by
  // level, since every scalar is a node too: a new frame each was a large part of this path's allocation (a 4.5 MB
  // cases file: 171 scavenges with reuse, 209 without).
  const frames: Frame[] = [];
  let depth = 0;
  // The `yaml` path's alias limit (`toJS({ maxAliasCount })`), applied here as that path would.
  const limit = new AliasLimit(MAX_YAML_ALIASES);
  let lastAlias = -1;
  let overLines = false;
  // Where js-yaml read an item into a list with an empty item that the `yaml` package does not read into it.
  let readApart: FastFailure | undefined;
  // Where the node being opened or closed starts (past its properties, once read): where a construct left to the
  // `yaml` package stands.
  let nodeAt = 0;
  const listener = (event: 'open' | 'close', state: State) => {
    if (event === 'open') {
      nodeAt = state.position + shift;
      const { at, anchor, alias, tagged } = nodeProperties(state);
      // js-yaml opens an alias that is a list item twice, at one place: it is counted once.
      if (alias !== undefined && at !== lastAlias) {
        lastAlias = at;
        if (!limit.alias(alias)) {
          if (options.file === undefined) throw new NotFast();
          throw new UserError({ file: options.file, message: EXCESSIVE_ALIASES });
        }
      }
      frames[depth] ??= blankFrame();
      const frame = frames[depth]!;
      frame.at = at + shift;
      frame.keys = undefined;
      frame.values = 0;
      frame.items = undefined;
      frame.colon = Number.NaN;
      frame.inner = undefined;
      frame.innerShapes = undefined;
      frame.anchored = anchor === undefined ? undefined : limit.anchor(anchor);
      frame.alias = alias !== undefined;
      frame.tagged = tagged;
      frame.nullKey = false;
      frame.line = state.line;
      depth++;
      return;
    }
    // The frame stays in the stack for the next node at its level; nothing below keeps it.
    const frame = frames[--depth]!;
    nodeAt = frame.at;
    const result = state.result as unknown;
    const scalar = result === null || typeof result !== 'object';
    // What weighs in the alias limit (an alias weighs as its anchored node does): a scalar, and the nulls of a list's
    // empty items, which js-yaml may compose without a node.
    if (!frame.alias && (scalar || (Array.isArray(result) && result.length > frame.values))) limit.leaf();
    if (frame.anchored) limit.close(frame.anchored);
    // A flow collection or quoted scalar over several lines: js-yaml reads some the `yaml` package refuses (a line of
    // it indented no more than its block), which its lexer is asked about once the whole text is read (`cutShort`).
    // Closed on the line it was opened on: on one line (js-yaml's lines are counted without a line index).
    if (!overLines && state.line !== frame.line) {
      const open = state.input.charCodeAt(frame.at - shift);
      if (open === 0x5b /* [ */ || open === 0x7b /* { */ || open === 0x22 /* " */ || open === 0x27 /* ' */)
        overLines = lines().position(frame.at).line !== lines().position(state.position + shift).line;
    }
    const parent = depth > 0 ? frames[depth - 1] : undefined;
    // A scalar that a `:` follows on its line is a mapping key: js-yaml composes keys as nodes of their own.
    if (parent && scalar && isKey(state.input, state.position)) {
      // An alias as a key: its value may be a collection, which the two spell apart. An anchor or `!!str` before a
      // key on its line is the key's to both (the `yaml` Document starts the key past them, as `frame.at` does); a
      // mapping that starts with that key was opened at the same place, and read them as its own. An anchor on a line
      // of its own before a mapping is the mapping's: js-yaml opens the key past it.
      if (frame.alias) throw new NotFast();
      if (parent.at === frame.at) {
        if (parent.anchored && frame.anchored) {
          limit.close(parent.anchored);
          parent.anchored = undefined;
        }
        parent.tagged = false;
      }
      const key = result === null ? '' : String(result);
      if (result === null) parent.nullKey = true;
      if (parent.keys) parent.keys.push(key, frame.at, Number.NaN);
      else parent.keys = [key, frame.at, Number.NaN];
      parent.colon = spacesAfter(state.input, state.position) + shift;
      return;
    }
    // Where this value or item starts. An empty node (js-yaml read nothing of it) is placed where the `yaml` composer
    // places it when it is a mapping's value: after the key's `:` and the spaces that follow; elsewhere its place is
    // the two parsers' to differ on, and none is kept.
    const nothingRead = state.position + shift <= frame.at;
    const empty = result === null && nothingRead;
    // An anchored or tagged empty node (`!!str` makes it ""): where the composer places it past its properties is not
    // pinned down here.
    if (nothingRead && (frame.anchored || frame.tagged)) throw new NotFast();
    const lastKeys = parent?.keys !== undefined && parent.values * 3 + 3 === parent.keys.length;
    const at = !empty ? frame.at : lastKeys ? spacesAfter(text, parent!.colon + 1) : Number.NaN;
    if (!parent) rootStart = at;
    else {
      const slot = parent.values++ * 3 + 2;
      if (parent.keys && slot < parent.keys.length) parent.keys[slot] = at;
      if (!parent.keys) {
        if (parent.items) parent.items.push(at);
        else parent.items = [at];
      }
    }
    if (scalar) return;
    // A collection as a key (`[a, b]: 1`, `? [a, b]`): js-yaml spells it as JavaScript does ("a,b"), the `yaml`
    // package as YAML ("[ a, b ]").
    if (
      parent &&
      (isKey(state.input, state.position) || previousCharacter(state.input, frame.at - shift) === 0x3f)
    )
      throw new NotFast();
    if (frame.nullKey) respellNullKey(result as Record<string, unknown>);
    const open = state.input.charCodeAt(frame.at - shift);
    const flow = open === 0x5b || open === 0x7b; // `[` or `{`
    // A block list with an empty item (`-` and nothing, which js-yaml may compose without a node, and which the two
    // parsers place apart): its items are not placed. js-yaml reads an item less indented after one as one more item of
    // this list (`- - x\n  -\n- y` is [[x, null, y]] to it, and [[x, null], y] to the `yaml` package): such a list is
    // left to that package. Where that item is no item of a list around to the `yaml` package (a syntax error there,
    // as in a list of calls whose next call stands at its key's column), its windows read the errors, as at a failure
    // of js-yaml's there.
    if (
      !flow &&
      !frame.alias &&
      Array.isArray(result) &&
      (frame.items?.length !== result.length || frame.items.some(Number.isNaN))
    ) {
      const apart = emptyItemsReadApart(text, frame.at, state.position + shift);
      if (apart !== 'alike') {
        if (apart !== undefined)
          readApart = { at: apart, lists: listsRead(text, frames, depth + 1), overLines };
        throw new NotFast();
      }
      frame.items = undefined;
    }
    // An alias is the anchored collection itself, met again: nothing of it is placed under the alias. js-yaml opens
    // some collections twice (a flow mapping as a list item): the outer node holds the inner one alone.
    const shape: Shape = frame.alias
      ? { at: frame.at, keys: undefined, items: undefined, children: undefined, alias: true }
      : frame.inner?.length === 1 && frame.inner[0] === result
        ? frame.innerShapes![0]!
        : shapeOf(frame, result);
    if (!parent) root = shape;
    else if (parent.inner) {
      parent.inner.push(result);
      parent.innerShapes!.push(shape);
    } else {
      parent.inner = [result];
      parent.innerShapes = [shape];
    }
  };
  // Tells `failed` of a failure, and with `file`, throws what the windows around it find.
  const windowAt = (failure: FastFailure) => {
    options.failed?.(failure);
    if (options.file === undefined) return;
    const diagnostics = yamlErrorsInWindows(text, failure, options.file, readAgain);
    if (diagnostics) throw new UserError(diagnostics);
  };
  const around = options.around ?? MAX_AROUND;
  const readAround = (at: number, lists: readonly ReadList[]) =>
    around > 0
      ? readAroundItem(text, at, lists, (part) => loadYamlFast(part, { around: around - 1 }))
      : undefined;
  let value: unknown;
  try {
    value = load(text, { schema: CORE, listener } as LoadOptions);
  } catch (error) {
    if (error instanceof UserError) throw error;
    if (readApart) windowAt(readApart);
    if (options.file !== undefined && (error as { reason?: string }).reason === 'duplicated mapping key') {
      const places = duplicateKeys(text);
      if (places && !(overLines && cutShort(text)))
        throw new UserError(yamlErrors(places.map(duplicateKeyError), lines(), options.file));
    }
    // A construct js-yaml reads apart, in an item of a list: the rest read here, that item by the `yaml` package.
    if (error instanceof NotFast) return readAround(nodeAt, listsRead(text, frames, depth));
    const mark = (error as { mark?: { position?: unknown } }).mark;
    if (
      error instanceof NotFast ||
      error instanceof AliasInsideItsAnchor ||
      typeof mark?.position !== 'number'
    )
      return undefined;
    windowAt({ at: mark.position + shift, lists: listsRead(text, frames, depth), overLines });
    return undefined;
  }
  if (overLines) {
    const short = cutShortAt(text);
    if (short !== -1) {
      // A syntax error to the `yaml` package that js-yaml read through: its windows open at it as at a failure of
      // js-yaml's (nothing before it is cut short), with the lists read to it.
      windowAt({ at: short, lists: listsTo(text, root, short), overLines: false });
      return undefined;
    }
  }
  // A "null" key left is one no key node was composed for, or one written as a string: left to `yaml`, around its
  // item where its key was recorded.
  if (hasKey(value, 'null')) {
    const at = keyStartAnywhere(root, 'null');
    return at === undefined ? undefined : readAround(at, listsTo(text, root, at));
  }
  // The shape of the collection at a data path, or undefined where the path leaves what was recorded.
  const shapeAt = (path: readonly string[]): Shape | undefined => {
    let node: unknown = value;
    let shape = root;
    for (const segment of path) {
      if (!shape || node === null || typeof node !== 'object') return undefined;
      const i = Array.isArray(node) ? Number(segment) : keyIndex(shape.keys ?? [], segment) / 3;
      if (!(i >= 0) || !Number.isInteger(i)) return undefined;
      shape = shape.children?.[i];
      node = Array.isArray(node) ? node[i] : (node as Record<string, unknown>)[segment];
    }
    return shape;
  };
  // An empty document is null to `yaml`, undefined to js-yaml.
  return {
    value: value === undefined ? null : value,
    keyStartAt: (path, key) => keyStartIn(shapeAt(path), key),
    lines,
    startAt: (path, key) => {
      let node: unknown = value;
      let shape = root;
      let at = rootStart;
      for (const segment of path) {
        if (node === null || typeof node !== 'object') break;
        if (!shape) return undefined;
        // The Document's `locate` does not follow an alias: a path through one is placed at the alias.
        if (shape.alias) break;
        if (Array.isArray(node)) {
          const index = /^(?:0|[1-9][0-9]*)$/.test(segment) ? Number(segment) : -1;
          if (index < 0 || index >= node.length) break;
          if (!shape.items) return undefined;
          at = shape.items[index]!;
          shape = shape.children?.[index];
          node = node[index];
        } else {
          const list = shape.keys;
          const i = list ? keyIndex(list, segment) : -1;
          if (i === -1) break;
          at = list![i + 2] as number;
          shape = shape.children?.[i / 3];
          node = (node as Record<string, unknown>)[segment];
        }
      }
      // A key is placed only as js-yaml wrote it down: one it spells otherwise (a collection as a key) is left to
      // the Document, which names it as `yaml` does.
      if (key !== undefined) {
        if (shape?.alias) return at;
        return node !== null && typeof node === 'object' ? keyStartIn(shape, key) : undefined;
      }
      return Number.isNaN(at) ? undefined : at;
    },
  };
}

/**
 * The lists open at a failure, and the last collection read in each collection open there when it is a list: each
 * with the starts of its items read (an open list's unfinished item last).
 */
function listsRead(text: string, frames: readonly Frame[], depth: number): ReadList[] {
  const lists: ReadList[] = [];
  let inFlow = false;
  for (let i = 0; i < depth; i++) {
    const frame = frames[i]!;
    if (!frame.keys && listAt(text, frame.at)) {
      const items = frame.items ?? [];
      lists.push({ at: frame.at, items: i + 1 < depth ? [...items, frames[i + 1]!.at] : items, inFlow });
    }
    // What was read in a flow collection stands in one.
    const open = text.charCodeAt(frame.at);
    if (open === 0x5b /* [ */ || open === 0x7b /* { */) inFlow = true;
    const last = frame.innerShapes?.at(-1);
    if (last?.items && listAt(text, last.at)) lists.push({ at: last.at, items: last.items, inFlow });
  }
  return lists;
}

/**
 * The lists of a document read whole that hold `at`, from the root down, each with its items to the one that holds
 * `at`: what js-yaml would have been reading there (see `listsRead`). A collection whose items or values were not
 * placed ends the walk.
 */
function listsTo(text: string, root: Shape | undefined, at: number): ReadList[] {
  const lists: ReadList[] = [];
  let inFlow = false;
  for (let shape = root; shape; ) {
    let i: number;
    if (shape.items && listAt(text, shape.at)) {
      i = shape.items.length - 1;
      while (i >= 0 && !(shape.items[i]! <= at)) i--;
      if (i < 0) break;
      lists.push({ at: shape.at, items: shape.items.slice(0, i + 1), inFlow });
    } else if (shape.keys) {
      // The entry whose key starts last at or before `at`.
      i = shape.keys.length / 3 - 1;
      while (i >= 0 && !((shape.keys[i * 3 + 1] as number) <= at)) i--;
      if (i < 0) break;
    } else break;
    const open = text.charCodeAt(shape.at);
    if (open === 0x5b /* [ */ || open === 0x7b /* { */) inFlow = true;
    shape = shape.children?.[i];
  }
  return lists;
}

/** Whether a list starts at `at`: a flow list's `[`, or a block list's `-` that white space or the end follows. */
function listAt(text: string, at: number): boolean {
  if (text.charCodeAt(at) === 0x5b /* [ */) return true;
  if (text.charCodeAt(at) !== 0x2d /* - */) return false;
  const next = text.charCodeAt(at + 1);
  return Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
}

/** How the light path reads a text cut from a larger one: whole, or where it failed, or not at all (`undefined`). */
function readAgain(text: string): FastFailure | 'read' | undefined {
  let failure: FastFailure | undefined;
  const fast = loadYamlFast(text, {
    failed: (f) => {
      failure = f;
    },
  });
  return fast ? 'read' : failure;
}

/**
 * The shape of the collection a frame composed: its keys or item starts, and the shapes of the collections in it,
 * matched to its items or keys by identity, in order (js-yaml opens no node for some empty items, and a flow list's
 * `[a: 1]` makes a mapping it opens no node for). A value composed without its key (a collection as a key) leaves
 * none of the mapping's values placed.
 */
function shapeOf(frame: Frame, result: unknown): Shape {
  const list = Array.isArray(result);
  const keys = frame.keys ?? [];
  const count = list ? result.length : keys.length / 3;
  let children: Array<Shape | undefined> | undefined;
  const inner = frame.inner;
  if (inner) {
    children = new Array<Shape | undefined>(count);
    let next = 0;
    for (let i = 0; i < count && next < inner.length; i++) {
      const v = list ? result[i] : (result as Record<string, unknown>)[keys[i * 3] as string];
      if (v === null || typeof v !== 'object') continue;
      let k = next;
      while (k < inner.length && inner[k] !== v) k++;
      if (k === inner.length) continue;
      children[i] = frame.innerShapes![k];
      next = k + 1;
    }
  }
  if (list) {
    const aligned = !frame.keys && (frame.items?.length ?? 0) === result.length;
    return { at: frame.at, keys: undefined, items: aligned ? (frame.items ?? []) : undefined, children };
  }
  if (frame.keys && (frame.items || frame.values * 3 !== frame.keys.length))
    for (let i = 2; i < frame.keys.length; i += 3) frame.keys[i] = Number.NaN;
  return { at: frame.at, keys: frame.keys, items: undefined, children };
}

/** Where `key` of some mapping of the document is written, the first one recorded in the tree of shapes. */
function keyStartAnywhere(root: Shape | undefined, key: string): number | undefined {
  const stack = root ? [root] : [];
  while (stack.length > 0) {
    const shape = stack.pop()!;
    const at = keyStartIn(shape, key);
    if (at !== undefined) return at;
    for (const child of shape.children ?? []) if (child) stack.push(child);
  }
  return undefined;
}

/** Where `key` of the mapping of `shape` is written, if it was recorded. */
function keyStartIn(shape: Shape | undefined, key: string): number | undefined {
  const list = shape?.keys;
  const i = list ? keyIndex(list, key) : -1;
  return i === -1 ? undefined : (list![i + 1] as number);
}

/** Where `key` stands in a mapping's record (key, key start, value start, ...), or -1. */
function keyIndex(list: ReadonlyArray<string | number>, key: string): number {
  for (let i = 0; i < list.length; i += 3) if (list[i] === key) return i;
  return -1;
}

/** Where the first character at or after `at` that is no space or tab stands. */
function spacesAfter(input: string, at: number): number {
  let i = at;
  while (input.charCodeAt(i) === 0x20 || input.charCodeAt(i) === 0x09) i++;
  return i;
}

/** Whether a `:` follows `at` on its line, past spaces and tabs: the node just composed there was a key. */
function isKey(input: string, at: number): boolean {
  let i = at;
  let c = input.charCodeAt(i);
  while (c === 0x20 || c === 0x09) c = input.charCodeAt(++i);
  return c === 0x3a /* : */;
}

/**
 * The tags both parsers read alike with this file's CORE: the non-specific `!`, and a local (`!name`) or `!!name` tag
 * spelled with letters, digits, `-`, `_` and `.` (so that no `%` escape or other handle can be read apart) and ended
 * by white space (js-yaml reads a flow indicator into a tag). Not the tags the `yaml` package knows beyond the core
 * schema (`!!binary`, `!!set`, ...), which it builds values of its own for.
 */
const LIGHT_TAG = /^!(?:!?[A-Za-z0-9_.-]+)?$/;
const YAML_KNOWN_TAGS = new Set(['!!binary', '!!merge', '!!omap', '!!pairs', '!!set', '!!timestamp']);

/** Whether the tag written from `at` to `end` is read alike by both parsers (see `LIGHT_TAG`). */
function lightTag(input: string, at: number, end: number): boolean {
  const tag = input.slice(at, end);
  const next = input.charCodeAt(end);
  const spaced = Number.isNaN(next) || next === 0x20 || next === 0x09 || next === 0x0a || next === 0x0d;
  return spaced && LIGHT_TAG.test(tag) && !YAML_KNOWN_TAGS.has(tag);
}

/**
 * Where the node js-yaml opens starts, as the `yaml` composer places it, and its properties: past an anchor
 * (`&name`) and a tag, in either order, and the spaces, line breaks and comments after each; at an alias's `*`.
 * Throws `NotFast` at a tag the two parsers may read apart (see `lightTag`) and at a property repeated.
 */
function nodeProperties(state: State): {
  at: number;
  anchor: string | undefined;
  alias: string | undefined;
  tagged: boolean;
} {
  const input = state.input;
  let at = contentStart(input, state.position);
  let c = input.charCodeAt(at);
  if (c === 0x2a /* * */)
    return { at, anchor: undefined, alias: input.slice(at + 1, nameEnd(input, at + 1)), tagged: false };
  let anchor: string | undefined;
  let tagged = false;
  for (;;) {
    if (c === 0x26 /* & */ && anchor === undefined) {
      const end = nameEnd(input, at + 1);
      anchor = input.slice(at + 1, end);
      at = contentStart(input, end);
    } else if (c === 0x21 /* ! */ && !tagged && lightTag(input, at, nameEnd(input, at))) {
      // `!!str` makes a scalar the string it is written as, and `!!int`, `!!float`, `!!bool` and `!!null` resolve it
      // by the core schema's rule of that type, or leave it that string where the rule does not take it; any other
      // tag leaves a scalar its string and a collection as it is: for js-yaml (this file's CORE) and the `yaml`
      // package alike.
      tagged = true;
      at = contentStart(input, nameEnd(input, at));
    } else break;
    c = input.charCodeAt(at);
  }
  if (c === 0x21 /* ! */ || c === 0x26 /* & */ || c === 0x2a /* * */) throw new NotFast();
  return { at, anchor, alias: undefined, tagged };
}

/**
 * Whether the block list written from `from` to `to` holds an empty item (a `-` with nothing after it on its line but
 * white space or a comment) and no `-` item less indented than one right after it (past blank and comment lines),
 * which js-yaml would read into the list: then the two parsers read it alike. Where such an item follows, where its
 * `-` stands; undefined for a list with no empty item written so.
 */
function emptyItemsReadApart(text: string, from: number, to: number): number | 'alike' | undefined {
  let empty = false;
  // The column of the empty item on the line before, or -1.
  let pending = -1;
  const start = lineStartOf(text, from);
  let lineAt = start;
  for (const line of text.slice(start, to).split(/(?<=\n)/)) {
    const at = lineAt;
    lineAt += line.length;
    const content = line
      .replace(/\r?\n$/, '')
      .replace(/(?:^|[ \t])#.*$/, '')
      .trimEnd();
    if (content.trim() === '') continue;
    const indent = content.length - content.trimStart().length;
    if (pending !== -1 && /^-(?:[ \t]|$)/.test(content.trimStart()) && indent < pending) return at + indent;
    pending = -1;
    // An item indicator that ends the line's content: `-`, `- -`.
    if (/(?:^|[ \t])-$/.test(content)) {
      empty = true;
      pending = content.length - 1;
    }
  }
  return empty ? 'alike' : undefined;
}

/** The start of the line that holds `at`. */
function lineStartOf(text: string, at: number): number {
  let i = at;
  while (i > 0 && text.charCodeAt(i - 1) !== 10 && text.charCodeAt(i - 1) !== 13) i--;
  return i;
}

/**
 * Spells a mapping's null key as the `yaml` package does, "" (js-yaml's is "null"), its keys kept in order. A mapping
 * that also has a "" key is left to `yaml`, which reads the two as one.
 */
function respellNullKey(mapping: Record<string, unknown>): void {
  if (Object.hasOwn(mapping, '')) throw new NotFast();
  const entries = Object.entries(mapping);
  for (const [key] of entries) delete mapping[key];
  // Defined, not assigned: a `__proto__` key stays a key.
  for (const [key, value] of entries)
    Object.defineProperty(mapping, key === 'null' ? '' : key, {
      value,
      writable: true,
      enumerable: true,
      configurable: true,
    });
}

/** The end of an anchor or alias name starting at `from`: the first white space or flow indicator. */
function nameEnd(input: string, from: number): number {
  let i = from;
  for (;;) {
    const c = input.charCodeAt(i);
    if (Number.isNaN(c) || c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) return i;
    if (c === 0x2c || c === 0x5b || c === 0x5d || c === 0x7b || c === 0x7d) return i;
    i++;
  }
}

/** Past the spaces, line breaks and comments js-yaml may stand on when it opens a node. */
function contentStart(input: string, from: number): number {
  let i = from;
  for (;;) {
    const c = input.charCodeAt(i);
    if (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) i++;
    else if (c === 0x23 /* # */) {
      const end = input.indexOf('\n', i);
      if (end === -1) return input.length;
      i = end + 1;
    } else return i;
  }
}

/** Whether a mapping anywhere in a value has `key` as its own key. */
function hasKey(value: unknown, key: string): boolean {
  // A stack and plain loops: this walks every node of the document, where a callback and an array of values per
  // mapping took 14-44 ms of a 4.5 MB spec (7.5-11 ms now).
  const stack: unknown[] = [value];
  while (stack.length > 0) {
    const node = stack.pop();
    if (node === null || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) if (typeof node[i] === 'object') stack.push(node[i]);
      continue;
    }
    if (Object.hasOwn(node, key)) return true;
    for (const k in node) {
      const v = (node as Record<string, unknown>)[k];
      if (typeof v === 'object') stack.push(v);
    }
  }
  return false;
}

const duplicateKeyError = (offset: number) => ({ offset, message: DUPLICATE_KEY });

/**
 * Where the `yaml` package reports each duplicate key of a text (the first character of each later use of a key in
 * its mapping, in the order of the text), found by reading the text again with js-yaml, which lets a later key
 * override an earlier one, in one pass (the `yaml` composer compares each key with every earlier key of its mapping:
 * 1 MB of one duplicated key took 1.3 s). Undefined when that is not all the `yaml` package would say, or this pass
 * cannot place it as the composer does (the text is then read with the `yaml` package): a construct `loadYamlFast`
 * leaves to it, a key that is no scalar or is not followed by `:` on its line (not recorded here), two keys spelled
 * alike that the YAML core schema tells apart (`1` and `"1"`), and a duplicate right after an empty value (which
 * the composer places at the end of the line before).
 */
function duplicateKeys(text: string): number[] | undefined {
  const shift = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  const places: number[] = [];
  // Each open node: where it starts, the keys of the mapping it may turn out to be (each spelling with its value),
  // how many keys were written in it, duplicates included, and how many other nodes were composed in it.
  const frames: Array<{
    at: number;
    keys: Map<string, unknown> | undefined;
    written: number;
    values: number;
  }> = [];
  const listener = (event: 'open' | 'close', state: State) => {
    if (event === 'open') {
      // Anchors, aliases and tags are left to the `yaml` package here: this pass does not count what aliases repeat,
      // and a tagged key may be a key of another type.
      const { at, anchor, alias, tagged } = nodeProperties(state);
      if (anchor !== undefined || tagged || alias !== undefined) throw new NotFast();
      frames.push({ at, keys: undefined, written: 0, values: 0 });
      return;
    }
    const frame = frames.pop()!;
    const result = state.result as unknown;
    const parent = frames[frames.length - 1];
    const scalar = result === null || typeof result !== 'object';
    if (parent && scalar && isKey(state.input, state.position)) {
      const key = String(result);
      parent.written++;
      parent.keys ??= new Map();
      if (!parent.keys.has(key)) parent.keys.set(key, result);
      else if (parent.keys.get(key) !== result || previousCharacter(state.input, frame.at) === 0x3a /* : */)
        throw new NotFast();
      else places.push(frame.at + shift);
      return;
    }
    if (parent) parent.values++;
    if (scalar) return;
    // A list of pairs (`[a: 1, a: 2]` is two mappings, which js-yaml opens no node for), or a mapping with a value
    // whose key was not recorded (an explicit `? key`, a collection as a key). js-yaml may open a node twice for one
    // collection (a flow mapping as a list item): the outer one holds the inner one alone.
    if (
      Array.isArray(result)
        ? frame.written > 0
        : frame.values !== frame.written && frame.values + frame.written > 1
    )
      throw new NotFast();
  };
  try {
    load(text, { schema: CORE, listener, json: true } as LoadOptions);
  } catch {
    return undefined;
  }
  return places.length > 0 ? places : undefined;
}

/** The last character before `at` that is no space, tab or line break (NaN at the text's start). */
function previousCharacter(input: string, at: number): number {
  let i = at - 1;
  let c = input.charCodeAt(i);
  while (c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0d) c = input.charCodeAt(--i);
  return c;
}
