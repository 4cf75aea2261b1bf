/**
 * Whether a spec's `workups` patterns take a workup id: `*` matches any run of characters; a spec with no patterns
 * takes every workup. Shared by the Vitest suite and `needlework score`.
 */
export function appliesTo(patterns: readonly string[] | undefined, id: string): boolean {
  if (!patterns || patterns.length === 0) return true;
  return patterns.some((p) =>
    new RegExp(
      `^${p
        .split('*')
        .map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
        .join('.*')}$`,
    ).test(id),
  );
}
