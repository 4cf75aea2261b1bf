// The block lists at the top of a YAML text, found by indentation alone, so that a text js-yaml cannot read whole can
// be read item by item (src/parse/yaml.ts): one broken case of a `cases:` list leaves the others readable.

/** One item of a list: where its line starts, where its `-` stands, and where the next item's (or what follows) line starts. */
export interface TopItem {
  start: number;
  dash: number;
  end: number;
}

/** A block list at the top of a document: the value of a root key (`cases:`), or the document itself (no key). */
export interface TopList {
  key: string | undefined;
  items: TopItem[];
}

/** One line of the text: where it starts, where its content starts (past its indentation) and its indentation. */
interface Line {
  start: number;
  content: number;
  indent: number;
  text: string;
}

/** A root key with nothing after its `:` but a comment: `cases:`, `"cases":`. */
const EMPTY_KEY =
  /^("(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s#"'?:&*!|>%@`,[\]{}-][^#]*?|-[^\s#][^#]*?)[ \t]*:[ \t]*(?:#.*)?$/;

/**
 * The block lists of a YAML text that stand at its top: a root key's value written as `-` items on the lines after
 * it, or the text itself written so. An item runs from its `-` line to the next line indented as much that starts
 * with `-`, or the first line indented less (or as much, without a `-`). Blank and comment lines, and lines indented
 * with a tab (no YAML indentation: js-yaml refuses them), belong to the item they stand in. Lines are not parsed
 * further: a quoted or flow scalar continued at a list's indentation, or less, ends its list there. The search stops
 * at a second document (`---` after content) or a directive after content.
 */
export function topLists(text: string): TopList[] {
  const lists: TopList[] = [];
  let list: TopList | undefined;
  let listIndent = 0;
  /** The root key just read with an empty value, whose list the next line may start; null when none. */
  let pending: string | null = null;
  let content = false;
  const end = (at: number) => {
    if (!list) return;
    list.items.at(-1)!.end = at;
    lists.push(list);
    list = undefined;
  };
  for (const line of lines(text)) {
    const first = line.text.charCodeAt(line.content - line.start);
    if (Number.isNaN(first) || first === 0x23 /* # */) continue;
    if (/^[ ]*\t/.test(line.text)) continue;
    const dash = /^-(?:[ \t]|$)/.test(line.text.slice(line.content - line.start));
    if (list) {
      if (line.indent > listIndent) continue;
      if (line.indent === listIndent && dash) {
        list.items.at(-1)!.end = line.start;
        list.items.push({ start: line.start, dash: line.content, end: text.length });
        continue;
      }
      end(line.start);
    }
    const key = pending;
    pending = null;
    if (dash && (key !== null || (line.indent === 0 && !content))) {
      list = { key: key ?? undefined, items: [{ start: line.start, dash: line.content, end: text.length }] };
      listIndent = line.indent;
      content = true;
      continue;
    }
    if (line.indent > 0) continue;
    if (/^(?:---|\.\.\.)(?:[ \t]|$)/.test(line.text)) {
      // The document's start, before any content; a second document's after.
      if (content || line.text.slice(3).replace(/#.*/, '').trim() !== '') break;
      continue;
    }
    if (line.text.startsWith('%')) {
      if (content) break;
      continue;
    }
    content = true;
    const empty = EMPTY_KEY.exec(line.text);
    if (empty) pending = keyText(empty[1]!);
  }
  end(text.length);
  return lists;
}

/** A key as written, unquoted. */
function keyText(written: string): string {
  if (written.startsWith('"')) {
    try {
      return JSON.parse(written) as string;
    } catch {
      return written;
    }
  }
  if (written.startsWith("'")) return written.slice(1, -1).replaceAll("''", "'");
  return written;
}

/** The lines of a text (a byte-order mark and `\r\n`, `\r` or `\n` line ends not in them). */
function* lines(text: string): Generator<Line> {
  let start = text.charCodeAt(0) === 0xfeff ? 1 : 0;
  while (start < text.length) {
    let stop = start;
    while (stop < text.length && text.charCodeAt(stop) !== 0x0a && text.charCodeAt(stop) !== 0x0d) stop++;
    const line = text.slice(start, stop);
    let content = 0;
    while (line.charCodeAt(content) === 0x20) content++;
    yield { start, content: start + content, indent: content, text: line };
    start = stop + (text.charCodeAt(stop) === 0x0d && text.charCodeAt(stop + 1) === 0x0a ? 2 : 1);
  }
}

/**
 * The text with each of `items` blanked (every character but its `-` and its line breaks a space): the same lines and
 * columns, each of those items now an empty one, so the rest of the document reads as written.
 */
export function withoutItems(text: string, items: readonly TopItem[]): string {
  const parts: string[] = [];
  let at = 0;
  for (const item of [...items].sort((a, b) => a.start - b.start)) {
    parts.push(text.slice(at, item.dash + 1), text.slice(item.dash + 1, item.end).replace(/[^\r\n]/g, ' '));
    at = item.end;
  }
  parts.push(text.slice(at));
  return parts.join('');
}
