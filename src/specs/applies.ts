const compiled = new Map<string, RegExp>();

/** A `workups` pattern as a regular expression (`*` matches any run of characters), compiled once per pattern. */
export function patternRegExp(pattern: string): RegExp {
  let re = compiled.get(pattern);
  if (!re) {
    re = new RegExp(
      `^${pattern
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    );
    compiled.set(pattern, re);
  }
  return re;
}

/**
 * Whether a spec's `workups` patterns take a workup id: `*` matches any run of characters; a spec with no patterns
 * takes every workup. Shared by the Vitest suite, `checkWorkup` and `needlework score`.
 */
export function appliesTo(patterns: readonly string[] | undefined, id: string): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) => (p.includes('*') ? patternRegExp(p).test(id) : p === id));
}
