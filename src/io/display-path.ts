import { isAbsolute, relative, resolve, sep } from 'node:path';

/** A path as a reporter prints it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}

/**
 * A file as CI tools link it: relative to the project root with `/` separators (GitHub annotations and GitLab's
 * JUnit `file` are repository paths). A path outside the root stays absolute.
 */
export function projectPath(root: string, file: string): string {
  return displayPath(resolve(root, file), root).split(sep).join('/');
}
