import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The layer map of src/layers.json: each layer's folders (and root files), lowest first. */
export interface LayerMap {
  layers: Array<{ name: string; folders: string[] }>;
}

/** What breaks the map: an import that goes up a layer, or a cycle of files or of folders. */
export interface Problem {
  kind: 'upward' | 'file cycle' | 'folder cycle' | 'unmapped';
  detail: string;
}

/** Every .ts and .js file under `dir`, as paths relative to `root`. */
export function sourceFiles(root: string, dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(root, path);
    return /\.(ts|js|mts|mjs)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [path] : [];
  });
}

/** The relative imports and re-exports of a file's text (type-only ones too), as paths relative to `root`. */
export function importsOf(root: string, file: string, text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/(?:^|\n)\s*(?:import|export)\b[^'";]*?\bfrom\s*['"](\.{1,2}\/[^'"]+)['"]/g))
    found.push(resolveSource(root, file, m[1]!));
  for (const m of text.matchAll(/\bimport\(\s*['"](\.{1,2}\/[^'"]+)['"]\s*\)/g))
    found.push(resolveSource(root, file, m[1]!));
  for (const m of text.matchAll(/(?:^|\n)\s*import\s*['"](\.{1,2}\/[^'"]+)['"]/g))
    found.push(resolveSource(root, file, m[1]!));
  return found;
}

/** `./x.js` as the source file it names (`x.ts` where that is the file). */
function resolveSource(root: string, file: string, spec: string): string {
  const path = relative(root, resolve(root, dirname(file), spec));
  return path.replace(/\.js$/, '.ts');
}

/** The layer unit of a file: its top folder under src/ (or `reporters`), or the root file's own name. */
export function unitOf(file: string): string {
  const parts = file.split('/');
  if (parts[0] === 'reporters') return 'reporters';
  return parts.length === 2 ? parts[1]! : parts[1]!;
}

/** The strongly connected components of more than one node (or a node importing itself): each one is a cycle. */
export function cycles(graph: ReadonlyMap<string, ReadonlySet<string>>): string[][] {
  let counter = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) === index.get(node)) {
      const component: string[] = [];
      let member: string;
      do {
        member = stack.pop()!;
        onStack.delete(member);
        component.push(member);
      } while (member !== node);
      if (component.length > 1 || graph.get(node)?.has(node)) found.push(component.sort());
    }
  };
  for (const node of [...graph.keys()].sort()) if (!index.has(node)) visit(node);
  return found;
}

/** Every problem of the files (path -> text) against the map: upward imports, file cycles, folder cycles. */
export function checkLayers(files: ReadonlyMap<string, string>, map: LayerMap, root: string): Problem[] {
  const layerOf = new Map<string, number>();
  map.layers.forEach((layer, i) => {
    for (const folder of layer.folders) layerOf.set(folder, i);
  });
  const problems: Problem[] = [];
  const fileGraph = new Map<string, Set<string>>();
  const folderGraph = new Map<string, Set<string>>();
  for (const [file, text] of files) {
    const from = unitOf(file);
    if (!layerOf.has(from))
      problems.push({ kind: 'unmapped', detail: `${file}: ${from} is in no layer of src/layers.json` });
    const targets = importsOf(root, file, text).filter((t) => files.has(t));
    fileGraph.set(file, new Set(targets));
    for (const target of targets) {
      const to = unitOf(target);
      if (to === from) continue;
      const folders = folderGraph.get(from) ?? new Set<string>();
      folderGraph.set(from, folders);
      folders.add(to);
      const a = layerOf.get(from);
      const b = layerOf.get(to);
      if (a !== undefined && b !== undefined && b > a)
        problems.push({ kind: 'upward', detail: `${file} imports ${target}: ${from} is below ${to}` });
    }
  }
  for (const cycle of cycles(fileGraph)) problems.push({ kind: 'file cycle', detail: cycle.join(' <-> ') });
  for (const cycle of cycles(folderGraph))
    problems.push({ kind: 'folder cycle', detail: cycle.join(' <-> ') });
  return problems;
}

/** The repository's own files: src/ and reporters/, each with its text. */
export function repositoryFiles(root: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const dir of ['src', 'reporters'])
    for (const file of sourceFiles(root, dir)) files.set(file, readFileSync(join(root, file), 'utf8'));
  return files;
}
