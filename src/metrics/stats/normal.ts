/**
 * The standard normal distribution: its CDF to near machine precision and its quantile function. Written here rather
 * than taken from a package because the statistics layer needs only these two and must stay dependency-free.
 */

const SQRT2 = Math.SQRT2;
const TWO_OVER_SQRT_PI = 2 / Math.sqrt(Math.PI);

/**
 * erfc(x) for x >= 0. Below 2 the all-positive series erf(x) = 2/sqrt(pi) e^(-x^2) sum 2^n x^(2n+1) / (2n+1)!!
 * (no cancellation between terms); from 2 on, the continued fraction of erfc (Lentz's method), which converges fast
 * there and keeps the relative precision of tiny tails that 1 - erf(x) would lose.
 */
function erfcPositive(x: number): number {
  if (x < 2) {
    let term = x;
    let sum = x;
    for (let n = 1; n < 200; n++) {
      term *= (2 * x * x) / (2 * n + 1);
      sum += term;
      if (term < sum * 1e-17) break;
    }
    return 1 - TWO_OVER_SQRT_PI * Math.exp(-x * x) * sum;
  }
  // erfc(x) = e^(-x^2)/sqrt(pi) * 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + 2/(x + ...))))).
  const tiny = 1e-300;
  let f = x;
  let c = x;
  let d = 0;
  for (let n = 1; n < 500; n++) {
    const a = n / 2;
    d = x + a * d;
    d = d === 0 ? tiny : 1 / d;
    c = x + a / c;
    if (c === 0) c = tiny;
    const delta = c * d;
    f *= delta;
    if (Math.abs(delta - 1) < 1e-16) break;
  }
  return Math.exp(-x * x) / (Math.sqrt(Math.PI) * f);
}

/** P(Z <= z) for a standard normal Z. */
export function normalCdf(z: number): number {
  if (Number.isNaN(z)) return Number.NaN;
  if (z === Number.POSITIVE_INFINITY) return 1;
  if (z === Number.NEGATIVE_INFINITY) return 0;
  const t = Math.abs(z) / SQRT2;
  const upper = 0.5 * erfcPositive(t);
  return z >= 0 ? 1 - upper : upper;
}

/** P(Z > z), computed directly so that a small upper tail keeps its precision. */
export function normalSurvival(z: number): number {
  return normalCdf(-z);
}

// Acklam's rational approximation (relative error 1.15e-9), then refined with Newton steps on normalCdf.
const A = [
  -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
  2.506628277459239,
];
const B = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
const C = [
  -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
  2.938163982698783,
];
const D = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];

/** The z with P(Z <= z) = p, for p in (0, 1); -Infinity at 0 and Infinity at 1. */
export function normalQuantile(p: number): number {
  if (!(p >= 0 && p <= 1)) throw new RangeError(`normalQuantile expects a probability in [0, 1], got ${p}`);
  if (p === 0) return Number.NEGATIVE_INFINITY;
  if (p === 1) return Number.POSITIVE_INFINITY;
  const [a0, a1, a2, a3, a4, a5] = A as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = B as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = C as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = D as [number, number, number, number];
  const low = 0.02425;
  let x: number;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    x =
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  } else if (p <= 1 - low) {
    const q = p - 0.5;
    const r = q * q;
    x =
      ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
      (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1);
  } else {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    x =
      -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1);
  }
  // Newton on whichever tail is small, so each step comes from a precise difference (1 - p is exact for p >= 0.5).
  for (let i = 0; i < 2; i++) {
    const error = p < 0.5 ? normalCdf(x) - p : 1 - p - normalSurvival(x);
    x -= error / (Math.exp(-0.5 * x * x) / Math.sqrt(2 * Math.PI));
  }
  return x;
}
