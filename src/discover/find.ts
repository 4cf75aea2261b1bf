import { type Dirent, readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import type { Diagnostic } from '../errors/index.js';

/** The files that make a folder a workup. */
export const WORKUP_FILES = ['note.md', 'provenance.jsonl', 'trajectory.json'] as const;
const SPEC_FILE = /\.(needle|rubric|cases)\.ya?ml$/;
/** A file of many workups, one a line (each in the workup schema of a `*.workup.json` file). */
export const WORKUPS_JSONL = /\.workups\.jsonl$/;
/** A workup in one file, or many workups in one file. */
const WORKUP_FILE = /\.workup\.json$|\.workups\.jsonl$/;

export interface Found {
  paths: string[];
  /** Patterns that matched nothing, or named a path that does not exist. */
  diagnostics: Diagnostic[];
}

export function isSpecFile(path: string): boolean {
  return SPEC_FILE.test(path);
}

/** Workups found, and the entry names of each workup folder among them, as they were listed to find it. */
export interface FoundWorkups extends Found {
  /** Listed once here, so that a loader neither lists nor stats the folder again (10,000 folders: 30,000 calls). */
  folders: Map<string, string[]>;
}

/** A folder's entry names when it holds one of `WORKUP_FILES`; undefined otherwise, or when it cannot be listed. */
function workupFolderNames(dir: string): string[] | undefined {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return undefined;
  }
  return WORKUP_FILES.some((name) => names.includes(name)) ? names : undefined;
}

/**
 * Workup paths named by folders, files and globs: a workup folder is taken as it is, any other folder is searched
 * (not descending into workups, `node_modules` or hidden folders) for workup folders, `*.workup.json` files and
 * `*.workups.jsonl` files (many workups, one a line).
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { findWorkups } from 'needlework';
 *
 * const { paths } = await findWorkups('fixtures/workups');
 * assert.ok(paths.some((p) => p.endsWith('grounded')));
 * assert.ok(paths.some((p) => p.endsWith('single-file.workup.json')));
 * ```
 */
export async function findWorkups(patterns: string | readonly string[]): Promise<FoundWorkups> {
  const folders = new Map<string, string[]>();
  const isWorkupFolder = (dir: string): boolean => {
    const names = workupFolderNames(dir);
    if (names) folders.set(dir, names);
    return names !== undefined;
  };
  const found = await find(patterns, 'workups', (path, isDir) => {
    if (!isDir) return [path];
    if (isWorkupFolder(path)) return [path];
    return walk(path, (child, name, isChildDir) => {
      if (isChildDir) return isWorkupFolder(child) ? 'take' : 'descend';
      return WORKUP_FILE.test(name) ? 'take' : 'skip';
    });
  });
  return { ...found, folders };
}

/**
 * Spec files (`*.needle.yaml`, `*.rubric.yaml`, `*.cases.yaml`) named by files, folders (searched) and globs.
 * @example
 * ```ts
 * import assert from 'node:assert/strict';
 * import { findSpecs } from 'needlework';
 *
 * const { paths, diagnostics } = await findSpecs(['needles', 'examples']);
 * assert.ok(paths.some((p) => p.endsWith('compound-alpha.needle.yaml')));
 * assert.deepEqual(diagnostics, []); // a pattern that matched nothing would be named here
 * ```
 */
export function findSpecs(patterns: string | readonly string[]): Promise<Found> {
  return find(patterns, 'specs (*.needle.yaml, *.rubric.yaml, *.cases.yaml)', (path, isDir) => {
    if (!isDir) return [path];
    return walk(path, (_path, name, isChildDir) =>
      isChildDir ? 'descend' : SPEC_FILE.test(name) ? 'take' : 'skip',
    );
  });
}

async function find(
  patterns: string | readonly string[],
  what: string,
  expand: (path: string, isDir: boolean) => string[],
): Promise<Found> {
  const paths: string[] = [];
  const diagnostics: Diagnostic[] = [];
  for (const pattern of typeof patterns === 'string' ? [patterns] : patterns) {
    const info = statSync(pattern, { throwIfNoEntry: false });
    let matched: string[];
    // The glob library is loaded only for a path that is not there: most commands name files and folders, and
    // loading it costs more than a CLI command's whole work on one spec.
    const globber = info ? undefined : await import('tinyglobby');
    if (info) {
      matched = expand(pattern, info.isDirectory());
    } else if (globber?.isDynamicPattern(pattern)) {
      // Paths come back as the user wrote the pattern: absolute for an absolute pattern, else relative to the cwd.
      const hits = await globber.glob(pattern, {
        onlyFiles: false,
        expandDirectories: false,
        absolute: isAbsolute(pattern),
        ignore: ['**/node_modules/**'],
      });
      matched = [];
      for (const hit of hits.sort()) {
        const hitInfo = statSync(hit, { throwIfNoEntry: false });
        if (hitInfo) for (const p of expand(hit.replace(/\/$/, ''), hitInfo.isDirectory())) matched.push(p);
      }
    } else {
      diagnostics.push({ file: pattern, message: 'no such file or folder' });
      continue;
    }
    if (matched.length === 0) diagnostics.push({ file: pattern, message: `no ${what} found` });
    for (const p of matched) paths.push(p);
  }
  return { paths: [...new Set(paths)], diagnostics };
}

type Verdict = 'take' | 'descend' | 'skip';

/**
 * The paths under `root` that `judge` takes, in byte order of name, descending where it says; `judge` is given each
 * entry's path (joined once) and name. Synchronous: a listing of thousands of workup folders costs several times more
 * as one `fs/promises` round trip per folder.
 */
function walk(root: string, judge: (path: string, name: string, isDir: boolean) => Verdict): string[] {
  const out: string[] = [];
  let entries: Dirent[];
  try {
    entries = readdirSync(root, { withFileTypes: true });
  } catch {
    entries = [];
  }
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const entry of entries) {
    if (entry.name.startsWith('.') || entry.name === 'node_modules') continue;
    const path = join(root, entry.name);
    const verdict = judge(path, entry.name, entry.isDirectory());
    if (verdict === 'take') out.push(path);
    else if (verdict === 'descend' && entry.isDirectory()) for (const p of walk(path, judge)) out.push(p);
  }
  return out;
}
