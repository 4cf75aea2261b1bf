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
  const out: string[] = ['<?xml version="1.0" encoding="UTF-8"?>'];
  write(root, 0, out);
  return `${out.join('\n')}\n`;
}

function write(element: XmlElement, depth: number, out: string[]): void {
  const indent = '  '.repeat(depth);
  const attributes = (element.attributes ?? [])
    .filter((pair): pair is [string, string | number] => pair[1] !== undefined)
    .map(([name, value]) => ` ${name}="${escapeAttribute(String(value))}"`)
    .join('');
  const open = `${indent}<${element.name}${attributes}`;
  const children = element.children ?? [];
  if (children.length === 0 && element.text === undefined) {
    out.push(`${open}/>`);
    return;
  }
  if (children.length === 0) {
    out.push(`${open}>${cdata(element.text ?? '')}</${element.name}>`);
    return;
  }
  out.push(`${open}>`);
  if (element.text !== undefined) out.push(`${indent}  ${cdata(element.text)}`);
  for (const child of children) write(child, depth + 1, out);
  out.push(`${indent}</${element.name}>`);
}

/** Attribute text: `&`, `<` and `"` escaped (`>` is legal and kept readable), and tabs and line breaks as references so parsers keep them. */
function escapeAttribute(text: string): string {
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
  return `<![CDATA[${xmlSafe(text).replaceAll(']]>', ']]]]><![CDATA[>')}]]>`;
}
