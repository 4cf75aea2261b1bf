import { isAbsolute, relative } from 'node:path';

/** A path as a reporter prints it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  const rel = relative(cwd, path);
  return rel && !rel.startsWith('..') && !isAbsolute(rel) ? rel : path;
}
