// The library as it was at an earlier commit, for a bench that compares before and after in one run: the commit's
// `src/` taken from git and each file transpiled by TypeScript (no type check) into node_modules/.cache, so its imports
// of packages resolve to this checkout's node_modules. Returns the folder that holds `src/`, or throws saying why.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');

export function buildBase(ref) {
  const sha = execFileSync('git', ['rev-parse', '--verify', `${ref}^{commit}`], {
    cwd: root,
    encoding: 'utf8',
  }).trim();
  const out = join(root, 'node_modules', '.cache', 'needlework-bench', sha.slice(0, 12));
  if (existsSync(join(out, 'done'))) return out;
  rmSync(out, { recursive: true, force: true });
  const raw = join(out, 'raw');
  mkdirSync(raw, { recursive: true });
  execFileSync('sh', ['-c', `git archive ${sha} src | tar -x -C "${raw}"`], { cwd: root });
  transpile(join(raw, 'src'), join(out, 'src'));
  rmSync(raw, { recursive: true, force: true });
  writeFileSync(join(out, 'done'), sha);
  return out;
}

function transpile(from, to) {
  mkdirSync(to, { recursive: true });
  for (const entry of readdirSync(from, { withFileTypes: true })) {
    const source = join(from, entry.name);
    if (entry.isDirectory()) transpile(source, join(to, entry.name));
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) {
      const { outputText } = ts.transpileModule(readFileSync(source, 'utf8'), {
        compilerOptions: {
          module: ts.ModuleKind.ESNext,
          target: ts.ScriptTarget.ES2023,
          verbatimModuleSyntax: true,
        },
      });
      writeFileSync(join(to, entry.name.replace(/\.ts$/, '.js')), outputText);
    } else writeFileSync(join(to, entry.name), readFileSync(source));
  }
}
