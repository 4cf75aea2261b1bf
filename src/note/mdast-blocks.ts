import type { Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { NoteBlock, TextRun } from './blocks.js';

/**
 * A note's blocks read with the full CommonMark parser (mdast-util-from-markdown): any markdown, at its cost. A list
 * item's paragraphs make one bullet, then its nested blocks follow; code, HTML, thematic breaks and definitions
 * make no block.
 */
export function mdastBlocks(source: string): NoteBlock[] {
  const tree: Root = fromMarkdown(source);
  const blocks: NoteBlock[] = [];
  const visit = (node: Nodes, inBullet: boolean): void => {
    switch (node.type) {
      case 'heading':
        blocks.push({
          kind: 'heading',
          depth: node.depth,
          title: inlineText(node.children),
          offset: node.position?.start.offset ?? 0,
        });
        return;
      case 'paragraph':
        if (!inBullet) blocks.push({ kind: 'paragraph', paragraphs: [runs(node)] });
        return;
      case 'listItem': {
        const own = node.children.filter((child) => child.type === 'paragraph');
        if (own.length > 0) blocks.push({ kind: 'bullet', paragraphs: own.map(runs) });
        for (const child of node.children) if (child.type !== 'paragraph') visit(child, false);
        return;
      }
      case 'list':
      case 'blockquote':
      case 'root':
        for (const child of (node as Parent).children) visit(child as Nodes, inBullet);
        return;
      default:
        return; // code, html, thematic breaks, definitions: no claims
    }
  };
  visit(tree, false);
  return blocks;
}

function runs(paragraph: Parent): TextRun[] {
  const out: TextRun[] = [];
  collectText(paragraph.children as PhrasingContent[], (text, start, end) => out.push({ text, start, end }));
  return out;
}

/** Plain text of inline content in reading order, each run with its source range. */
function collectText(
  nodes: readonly PhrasingContent[],
  push: (text: string, start: number, end: number) => void,
): void {
  for (const node of nodes) {
    const start = node.position?.start.offset ?? 0;
    const end = node.position?.end.offset ?? start;
    switch (node.type) {
      case 'text':
        push(node.value, start, end);
        break;
      case 'inlineCode':
        push(node.value, start, end);
        break;
      case 'break':
        push(' ', start, end);
        break;
      case 'image':
        if (node.alt) push(node.alt, start, end);
        break;
      default:
        if ('children' in node) collectText(node.children as PhrasingContent[], push);
    }
  }
}

function inlineText(nodes: readonly PhrasingContent[]): string {
  let out = '';
  collectText(nodes, (text) => {
    out += text;
  });
  return out;
}
