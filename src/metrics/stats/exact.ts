/**
 * Exact integer arithmetic for the conditional tests of 2 x 2 tables: binomial coefficients and hypergeometric
 * weights as BigInt, and the one conversion of an exact ratio to the nearest double. A p-value computed this way is
 * the exact rational rounded once, so 3/3 -> 0/3 gives 1/20 = 0.05 to the last bit, not 0.04999999999999996.
 */

/** Rows of Pascal's triangle already built, as BigInt: `pascal[n][k]` = C(n, k). */
const pascal: bigint[][] = [[1n]];
/** Rows are kept up to this n; larger ones are built on demand and not kept (a row of n holds n + 1 big numbers). */
const KEPT_ROWS = 2000;

/** C(n, k) for k = 0..n, as BigInt. */
export function binomialRow(n: number): readonly bigint[] {
  if (!Number.isInteger(n) || n < 0)
    throw new RangeError(`binomialRow expects a non-negative integer, got ${n}`);
  if (n < pascal.length) return pascal[n] as bigint[];
  let row = pascal.at(-1) as bigint[];
  for (let i = pascal.length; i <= n; i++) {
    const next = new Array<bigint>(i + 1);
    next[0] = 1n;
    next[i] = 1n;
    for (let k = 1; k < i; k++) next[k] = (row[k - 1] as bigint) + (row[k] as bigint);
    if (i <= KEPT_ROWS) pascal.push(next);
    row = next;
  }
  return row;
}

/** C(n, k) as BigInt; 0 outside 0 <= k <= n. */
export function binomial(n: number, k: number): bigint {
  if (k < 0 || k > n) return 0n;
  return binomialRow(n)[k] as bigint;
}

/**
 * num / den rounded to the nearest double (ties to even), for 0 <= num and 0 < den: the quotient is taken to 64
 * significant bits with a sticky bit for the remainder, which `Number()` then rounds once, correctly.
 */
export function ratioToNumber(num: bigint, den: bigint): number {
  if (den <= 0n || num < 0n) throw new RangeError('ratioToNumber expects num >= 0 and den > 0');
  if (num === 0n) return 0;
  const shift = Math.max(0, 66 - (num.toString(2).length - den.toString(2).length));
  const scaled = num << BigInt(shift);
  const quotient = scaled / den;
  const sticky = scaled % den === 0n ? 0n : 1n;
  // The sticky bit sits below the 64 kept bits, so Number() rounds as it would the exact quotient.
  let value = Number((quotient << 1n) | sticky);
  // In steps, so that a tiny ratio (a huge denominator) is not divided by an infinite power of two.
  let exponent = shift + 1;
  for (; exponent > 1000; exponent -= 1000) value /= 2 ** 1000;
  return value / 2 ** exponent;
}

/** The conditional distribution of one 2 x 2 table given its margins, as integer weights. */
export interface HypergeometricWeights {
  /** The smallest possible count of `after` passes. */
  low: number;
  /** weights[i] = C(after trials, low + i) C(before trials, passes - low - i): the ways to see low + i passes after. */
  weights: bigint[];
}

/**
 * The weights of the number x of `after` passes among `passes` in all, given `before` and `after` trials:
 * C(after, x) C(before, passes - x), for max(0, passes - before) <= x <= min(after, passes). Divided by their sum
 * C(before + after, passes) they are the hypergeometric probabilities (Fisher 1935).
 */
export function hypergeometricWeights(before: number, after: number, passes: number): HypergeometricWeights {
  const low = Math.max(0, passes - before);
  const high = Math.min(after, passes);
  const rowAfter = binomialRow(after);
  const rowBefore = binomialRow(before);
  const weights: bigint[] = [];
  for (let x = low; x <= high; x++) weights.push((rowAfter[x] as bigint) * (rowBefore[passes - x] as bigint));
  return { low, weights };
}

/** The product of two polynomials given by their coefficients (the distribution of a sum of independent counts). */
export function convolve(a: readonly bigint[], b: readonly bigint[]): bigint[] {
  const out = new Array<bigint>(a.length + b.length - 1).fill(0n);
  for (let i = 0; i < a.length; i++) {
    const ai = a[i] as bigint;
    if (ai === 0n) continue;
    for (let j = 0; j < b.length; j++) out[i + j] = (out[i + j] as bigint) + ai * (b[j] as bigint);
  }
  return out;
}

const logFactorials: number[] = [0];

/** ln(n!), from a table of running sums of logarithms (exact to a few units in the last place for any n). */
export function logFactorial(n: number): number {
  for (let i = logFactorials.length; i <= n; i++)
    logFactorials.push((logFactorials[i - 1] as number) + Math.log(i));
  return logFactorials[n] as number;
}
