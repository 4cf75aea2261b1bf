import { isAbsolute, relative, resolve, sep } from 'node:path';

/**
 * `path` relative to `folder` when it lies inside it (`''` for the folder itself), else undefined: a path that climbs
 * out (`../x`) or is on another drive. A name that merely starts with two dots (`..notes`) is inside.
 */
export function relativeInside(folder: string, path: string): string | undefined {
  const rel = relative(folder, path);
  return isAbsolute(rel) || rel === '..' || rel.startsWith(`..${sep}`) ? undefined : rel;
}

/** A path as a reporter prints it: relative to the working folder when inside it, else absolute. */
export function displayPath(path: string, cwd: string = process.cwd()): string {
  return relativeInside(cwd, path) || path;
}

/**
 * A file as CI tools link it: relative to the project root with `/` separators (GitHub annotations and GitLab's
 * JUnit `file` are repository paths). A path outside the root stays absolute.
 */
export function projectPath(root: string, file: string): string {
  return displayPath(resolve(root, file), root).split(sep).join('/');
}

/**
 * `projectPath` of `root`, remembered for each file it was asked for: a run names each workup's path once a check
 * (30,000 checks of 10,000 workups made 30,000 of each path's resolve, relative and split) and its few spec files
 * thousands of times.
 */
export function projectPaths(root: string): (file: string) => string {
  const known = new Map<string, string>();
  return (file) => {
    let path = known.get(file);
    if (path === undefined) {
      path = projectPath(root, file);
      known.set(file, path);
    }
    return path;
  };
}
