/** Plain byte order (not locale order), so reports are identical on every machine and locale. */
export function byteCompare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
