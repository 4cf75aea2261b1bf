// The `@example` blocks of needlework's public entry points, read from their source: which declarations must carry
// one, and the code of each, with its imports of the package (`needlework`, `needlework/vitest`,
// `needlework/reporters/<name>`) pointed at this checkout's source.
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');

/**
 * The folders whose exports carry no examples yet: the trajectory importers (src/adapters), being reworked in
 * another branch at the time of issue 46. Everything else `src/index.ts` exports by name must carry one.
 */
const NOT_YET = ['src/adapters/'];

/** One declaration that must carry an example: where it is, and its JSDoc (empty when it has none). */
export interface Documented {
  name: string;
  file: string;
  doc: string;
}

/** An example: the declaration it documents, its number there, and its code as a module of this checkout. */
export interface Example {
  name: string;
  file: string;
  code: string;
}

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');

/** Every TypeScript file of `dir`, relative to the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** The JSDoc block right before `at` in `text` (only white space between), or ''. */
function docBefore(text: string, at: number): string {
  const before = text.slice(0, at).trimEnd();
  if (!before.endsWith('*/')) return '';
  const start = before.lastIndexOf('/**');
  return start === -1 ? '' : before.slice(start);
}

/** Where a value is declared among `files`: an exported function, class or const of that name. */
function declaration(name: string, files: readonly string[]): Documented | undefined {
  const pattern = new RegExp(`^export (?:async )?(?:function\\*? |class |const )${name}\\b`, 'm');
  for (const file of files) {
    const text = read(file);
    const m = pattern.exec(text);
    if (m) return { name, file, doc: docBefore(text, m.index) };
  }
  return undefined;
}

/** The values `src/index.ts` exports by name (not through `export *`), with the module each comes from. */
function namedExports(): Array<{ name: string; from: string }> {
  const out: Array<{ name: string; from: string }> = [];
  for (const m of read('src/index.ts').matchAll(/export \{([^}]*)\} from '([^']+)'/g))
    for (const part of m[1]!.split(',').map((p) => p.trim()))
      if (part && !part.startsWith('type ')) out.push({ name: part, from: m[2]! });
  return out;
}

/** The members of `NeedleworkMatchers` (src/vitest/types.ts), each with its JSDoc: what an editor shows for a matcher. */
function matchers(): Documented[] {
  const file = 'src/vitest/types.ts';
  const text = read(file);
  const start = text.indexOf('export interface NeedleworkMatchers');
  const body = text.slice(start, text.indexOf('\n}\n', start));
  return [...body.matchAll(/^ {2}(\w+)\(/gm)].map((m) => ({
    name: m[1]!,
    file,
    doc: docBefore(body, m.index),
  }));
}

/**
 * Every public entry point that must carry an `@example`: the functions and classes `src/index.ts` exports by name
 * (but those of `NOT_YET`), every matcher, the Vitest entry's functions (`needlework`, `agentTest`,
 * `describeAgent`), and each reporter.
 */
export function entryPoints(): Documented[] {
  const src = sources('src');
  const found: Documented[] = [];
  for (const { name } of namedExports()) {
    const d = declaration(name, src);
    if (!d) throw new Error(`src/index.ts exports ${name}, declared nowhere in src`);
    // Constants (DEFAULT_EXEMPT_SECTIONS, TRAJECTORY_FORMATS) are values to read, not entry points; a deprecated
    // name points to the one that replaces it.
    if (
      /^[A-Z_]+$/.test(name) ||
      d.doc.includes('@deprecated') ||
      NOT_YET.some((dir) => d.file.startsWith(dir))
    )
      continue;
    found.push(d);
  }
  for (const name of ['needlework', 'agentTest', 'describeAgent'])
    found.push(declaration(name, ['src/vitest/plugin.ts', 'src/vitest/agent.ts'])!);
  found.push(...matchers());
  for (const file of sources('reporters')) {
    const name = /^export class (\w+)/m.exec(read(file))?.[1];
    if (name) found.push(declaration(name, [file])!);
  }
  return found;
}

/** The package's module names, and the source each stands for. */
const PACKAGE: Array<[RegExp, (m: RegExpExecArray) => string]> = [
  [/^needlework$/, () => 'src/index.ts'],
  [/^needlework\/vitest$/, () => 'src/vitest/index.ts'],
  [/^needlework\/reporters\/([\w-]+)$/, (m) => `reporters/${m[1]}.ts`],
];

/** The examples of a declaration's JSDoc: each ```ts block after an `@example` tag, its package imports rewritten. */
export function examplesOf(d: Documented, dir: string): Example[] {
  const examples: Example[] = [];
  for (const tag of d.doc.split('@example').slice(1)) {
    const block = /```ts\n([\s\S]*?)```/.exec(
      tag.split(/\n\s*\* @(?!example)/)[0]!.replace(/^\s*\* ?/gm, ''),
    );
    if (!block) continue;
    const code = block[1]!.replace(/(from |import )'([^']+)'/g, (whole, keyword: string, module: string) => {
      for (const [pattern, to] of PACKAGE) {
        const m = pattern.exec(module);
        if (m) {
          const target = relative(dir, join(ROOT, to(m))).replace(/\.ts$/, '.js');
          return `${keyword}'${target.startsWith('.') ? target : `./${target}`}'`;
        }
      }
      return whole;
    });
    examples.push({ name: d.name, file: d.file, code });
  }
  return examples;
}
