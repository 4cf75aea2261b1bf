import { xmlSafe } from '../text.js';

/**
 * The pieces of XML text the JUnit writer is made of. needlework writes the JUnit file itself (rather than through a
 * builder library) because it must control exactly which attributes each element carries: the Jenkins xUnit
 * plugin's junit-10.xsd rejects any attribute it does not list, while GitLab and the GitHub report actions need
 * `file` and `line` on every `<testcase>`. The writer puts the text of each element together directly, with no
 * element tree in between: a run of 30,000 checks writes 48 MB of it after its last test, and the tree's objects were
 * most of that time's garbage.
 *
 * Every string that may come from a user or an agent goes through `attribute`, `escapeAttribute` or `cdata`, which
 * clean it with `xmlSafe`; what the writer makes itself from numbers and dates needs none.
 */

/** The first line of every file. */
export const XML_DECLARATION = '<?xml version="1.0" encoding="UTF-8"?>\n';

/** ` name="value"`, the value escaped; nothing when the value is absent. */
export function attribute(name: string, value: string | undefined): string {
  return value === undefined ? '' : ` ${name}="${escapeAttribute(value)}"`;
}

/** An empty element holding `attributes` (written by `attribute`), on a line of its own. */
export function emptyElement(indent: string, name: string, attributes: string): string {
  return `${indent}<${name}${attributes}/>\n`;
}

/** An element holding `attributes` and the CDATA section of `text`, on a line of its own. */
export function textElement(indent: string, name: string, attributes: string, text: string): string {
  return `${indent}<${name}${attributes}>${cdata(text)}</${name}>\n`;
}

/** `<properties>` with one `<property name value/>` line each, written at `indent`. */
export class PropertiesWriter {
  private lines = '';
  private readonly open: string;

  constructor(private readonly indent: string) {
    this.open = `${indent}  <property name="`;
  }

  /** Adds one property (a method, so it can be handed on as a callback: `writer.add`). */
  readonly add = (name: string, value: string): void => {
    this.lines += propertyLine(this.open, name, value);
  };

  /** Adds `<property>` lines written at the same indent (`HeldProperties`). */
  addLines(lines: string): void {
    this.lines += lines;
  }

  /** The element; `<properties/>` when nothing was added. */
  text(): string {
    return this.lines === ''
      ? `${this.indent}<properties/>\n`
      : `${this.indent}<properties>\n${this.lines}${this.indent}</properties>\n`;
  }
}

/**
 * `<property>` lines, written at `indent`, to be held a while (until the file is written) as one flat string: a string
 * put together with `+` holds every part it was made from, where `join` copies them into one.
 */
export class HeldProperties {
  private readonly lines: string[] = [];
  private readonly open: string;

  constructor(indent: string) {
    this.open = `${indent}  <property name="`;
  }

  /** Adds one property (a method, so it can be handed on as a callback: `held.add`). */
  readonly add = (name: string, value: string): void => {
    this.lines.push(propertyLine(this.open, name, value));
  };

  /** The lines, for `PropertiesWriter.addLines`. */
  text(): string {
    return this.lines.join('');
  }
}

function propertyLine(open: string, name: string, value: string): string {
  return `${open}${escapeAttribute(name)}" value="${escapeAttribute(value)}"/>\n`;
}

/**
 * `<property>` lines of names fixed beforehand, written at `indent`: each name is escaped once, and only the values
 * each time (a file writes a criterion's task properties for every check of it).
 */
export class PropertyRows {
  private readonly opens: string[];

  constructor(indent: string, names: readonly string[]) {
    this.opens = names.map((name) => `${indent}  <property name="${escapeAttribute(name)}" value="`);
  }

  /** The lines of `values`, one a name, in the names' order. */
  text(values: readonly string[]): string {
    let lines = '';
    for (let i = 0; i < this.opens.length; i++)
      lines += `${this.opens[i]}${escapeAttribute(values[i]!)}"/>\n`;
    return lines;
  }
}

// Anything an attribute or CDATA text may need changed: markup characters, white space written as references, control
// characters (colour codes start with one), surrogates (a lone one is removed) and U+FFFE/U+FFFF. Most text has none.
const ATTRIBUTE_WORK = /[&<"\u0000-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;
const CDATA_WORK = /[\]\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f\ud800-\udfff\ufffe\uffff]/;

/** Attribute text: `&`, `<` and `"` escaped (`>` is legal and kept readable), and tabs and line breaks as references so parsers keep them. */
export function escapeAttribute(text: string): string {
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
export function cdata(text: string): string {
  if (!CDATA_WORK.test(text)) return `<![CDATA[${text}]]>`;
  return `<![CDATA[${xmlSafe(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
