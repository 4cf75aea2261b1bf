import { xmlSafe } from '../text.js';

/**
 * A minimal XML element tree for the JUnit writer. needlework writes the JUnit file itself (rather than through a
 * builder library) because it must control exactly which attributes each element carries: the Jenkins xUnit
 * plugin's junit-10.xsd rejects any attribute it does not list, while GitLab and the GitHub report actions need
 * `file` and `line` on every `<testcase>`.
 */
export interface XmlElement {
  name: string;
  /** Attributes in writing order; `undefined` values are left out. */
  attributes?: Array<[string, string | number | undefined]>;
  children?: XmlElement[];
  /** Text content, written as CDATA (stack traces and scorecards stay readable in a raw log). */
  text?: string;
  /**
   * Children written after `children`, each an empty element of `leaves.name` whose attributes are `leaves.names`
   * with one row's values: a list of thousands (a JUnit file's properties) without an element object for each.
   */
  leaves?: { name: string; names: readonly string[]; rows: ReadonlyArray<readonly string[]> };
}

/**
 * Serialises `root` with `children` as its children as an indented XML 1.0 document (every string cleaned with
 * `xmlSafe`), as the text of one child after another: a caller that writes each chunk as it comes (a JUnit file of
 * 30,000 test cases) never holds the whole tree nor the whole text. `children` is read once, lazily, and may wait
 * for a child still being computed (the JUnit file's gate) while the ones before it are written.
 */
export async function* renderXmlChunks(
  root: XmlElement,
  children: Iterable<XmlElement> | AsyncIterable<XmlElement>,
): AsyncGenerator<string> {
  const open = openTag(root, '');
  let empty = true;
  for await (const child of children) {
    if (empty) {
      yield `<?xml version="1.0" encoding="UTF-8"?>\n${open}>\n${root.text === undefined ? '' : `  ${cdata(root.text)}\n`}`;
      empty = false;
    }
    yield write(child, '  ');
  }
  if (empty) yield `<?xml version="1.0" encoding="UTF-8"?>\n${write({ ...root, children: [] }, '')}`;
  else yield `</${root.name}>\n`;
}

function openTag(element: XmlElement, indent: string): string {
  let open = `${indent}<${element.name}`;
  for (const [name, value] of element.attributes ?? []) {
    if (value !== undefined) open += attribute(name, String(value));
  }
  return open;
}

function write(element: XmlElement, indent: string): string {
  const open = openTag(element, indent);
  const children = element.children ?? [];
  const leaves = element.leaves;
  if (children.length === 0 && !leaves?.rows.length) {
    return element.text === undefined ? `${open}/>\n` : `${open}>${cdata(element.text)}</${element.name}>\n`;
  }
  let out = `${open}>\n`;
  const inner = `${indent}  `;
  if (element.text !== undefined) out += `${inner}${cdata(element.text)}\n`;
  for (const child of children) out += write(child, inner);
  if (leaves) {
    for (const row of leaves.rows) {
      out += `${inner}<${leaves.name}`;
      for (let i = 0; i < leaves.names.length; i++) out += attribute(leaves.names[i]!, row[i]!);
      out += '/>\n';
    }
  }
  return `${out}${indent}</${element.name}>\n`;
}

// Anything an attribute or CDATA text may need changed: markup characters, white space written as references, control
// characters (colour codes start with one), surrogates (a lone one is removed) and U+FFFE/U+FFFF. Most text has none.
const ATTRIBUTE_WORK = /[&<"\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;
const CDATA_WORK = /[\]\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/** ` name="value"`, the value escaped. */
function attribute(name: string, value: string): string {
  return ` ${name}="${escapeAttribute(value)}"`;
}

/** Attribute text: `&`, `<` and `"` escaped (`>` is legal and kept readable), and tabs and line breaks as references so parsers keep them. */
function escapeAttribute(text: string): string {
  if (plainAscii(text) || !ATTRIBUTE_WORK.test(text)) return text;
  return xmlSafe(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');
}

/**
 * Whether an attribute's text is printable ASCII other than `&`, `<` and `"`, which it is as written: most are (names,
 * numbers, verdicts), and a short text is checked this way in a fraction of a regular expression's call (10,000 cases:
 * 1.2 million attributes, 114 ms in the expression).
 */
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e || c === 0x22 /* " */ || c === 0x26 /* & */ || c === 0x3c /* < */) return false;
  }
  return true;
}

/** A CDATA section; a `]]>` inside the text is split across two sections, the only way to write it in CDATA. */
function cdata(text: string): string {
  if (!CDATA_WORK.test(text)) return `<![CDATA[${text}]]>`;
  return `<![CDATA[${xmlSafe(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
