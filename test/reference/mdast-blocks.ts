import type { Nodes, Parent, PhrasingContent, Root } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import type { NoteBlock, TextRun } from '../../src/note/blocks.js';

/**
 * The reference for `parseBlocks` (src/note/block-parser.ts): a note's blocks read with the full CommonMark parser
 * (mdast-util-from-markdown, micromark 4), which parsed notes until 2026-11-27 for what the block parser left to it. A
 * list item's paragraphs make one bullet, then its nested blocks follow; code, HTML, thematic breaks and definitions
 * make no block.
 */
export function mdastBlocks(source: string): NoteBlock[] {
  const tree: Root = fromMarkdown(source);
  const blocks: NoteBlock[] = [];
  // The tree walked in document order with a stack of its own (nesting is bounded, see `MAX_NESTING`, but a walk by
  // recursion would still tie the stack to the input).
  const stack: Array<{ node: Nodes; inBullet: boolean }> = [{ node: tree, inBullet: false }];
  while (stack.length > 0) {
    const { node, inBullet } = stack.pop()!;
    switch (node.type) {
      case 'heading':
        blocks.push({
          kind: 'heading',
          depth: node.depth,
          title: inlineText(node.children),
          offset: node.position?.start.offset ?? 0,
        });
        break;
      case 'paragraph':
        if (!inBullet) blocks.push({ kind: 'paragraph', paragraphs: [runs(node)] });
        break;
      case 'listItem': {
        const own = node.children.filter((child) => child.type === 'paragraph');
        if (own.length > 0) blocks.push({ kind: 'bullet', paragraphs: own.map(runs) });
        const rest = node.children.filter((child) => child.type !== 'paragraph');
        for (let k = rest.length - 1; k >= 0; k--) stack.push({ node: rest[k]!, inBullet: false });
        break;
      }
      case 'list':
      case 'blockquote':
      case 'root': {
        const children = (node as Parent).children;
        for (let k = children.length - 1; k >= 0; k--) stack.push({ node: children[k] as Nodes, inBullet });
        break;
      }
      default:
        break; // code, html, thematic breaks, definitions: no claims
    }
  }
  return blocks;
}

function runs(paragraph: Parent): TextRun[] {
  const out: TextRun[] = [];
  collectText(paragraph.children as PhrasingContent[], (text, start, end) => out.push({ text, start, end }));
  return out;
}

/**
 * Plain text of inline content in reading order, each run with its source range. Walked with a stack of its own, not
 * by recursion: emphasis may nest as deep as the note is long.
 */
function collectText(
  nodes: readonly PhrasingContent[],
  push: (text: string, start: number, end: number) => void,
): void {
  const stack: Array<{ nodes: readonly PhrasingContent[]; next: number }> = [{ nodes, next: 0 }];
  while (stack.length > 0) {
    const top = stack[stack.length - 1]!;
    if (top.next === top.nodes.length) {
      stack.pop();
      continue;
    }
    const node = top.nodes[top.next++]!;
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
        if ('children' in node) stack.push({ nodes: node.children as PhrasingContent[], next: 0 });
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
