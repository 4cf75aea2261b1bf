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
}

/** Serialises an element tree as an indented XML 1.0 document. Every string is cleaned with `xmlSafe`. */
export function renderXml(root: XmlElement): string {
  // One string grown by concatenation (V8 keeps it as a rope until read): no array of half a million pieces to join.
  return `<?xml version="1.0" encoding="UTF-8"?>\n${write(root, '')}`;
}

function write(element: XmlElement, indent: string): string {
  let open = `${indent}<${element.name}`;
  for (const [name, value] of element.attributes ?? []) {
    if (value !== undefined) open += ` ${name}="${escapeAttribute(String(value))}"`;
  }
  const children = element.children ?? [];
  if (children.length === 0) {
    return element.text === undefined ? `${open}/>\n` : `${open}>${cdata(element.text)}</${element.name}>\n`;
  }
  let out = `${open}>\n`;
  const inner = `${indent}  `;
  if (element.text !== undefined) out += `${inner}${cdata(element.text)}\n`;
  for (const child of children) out += write(child, inner);
  return `${out}${indent}</${element.name}>\n`;
}

// Anything an attribute or CDATA text may need changed: markup characters, white space written as references, control
// characters (colour codes start with one), surrogates (a lone one is removed) and U+FFFE/U+FFFF. Most text has none.
const ATTRIBUTE_WORK = /[&<"\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;
const CDATA_WORK = /[\]\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/** Attribute text: `&`, `<` and `"` escaped (`>` is legal and kept readable), and tabs and line breaks as references so parsers keep them. */
function escapeAttribute(text: string): string {
  if (!ATTRIBUTE_WORK.test(text)) return text;
  return xmlSafe(text)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('"', '&quot;')
    .replaceAll('\t', '&#9;')
    .replaceAll('\n', '&#10;')
    .replaceAll('\r', '&#13;');
}

/** A CDATA section; a `]]>` inside the text is split across two sections, the only way to write it in CDATA. */
function cdata(text: string): string {
  if (!CDATA_WORK.test(text)) return `<![CDATA[${text}]]>`;
  return `<![CDATA[${xmlSafe(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
