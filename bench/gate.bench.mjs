// The regression gate's error rates: how often it calls a regression when nothing changed (A/A), in every layout of
// cases and trials the issue names, and how often it detects a real drop, against the best valid test for one case
// (the UMPU test: Fisher's conditional test, randomised at its boundary so its size is the level exactly). One case is
// computed exactly, by enumerating every pair of outcomes; layouts of many cases are simulated (fixed seeds) through
// compareRuns itself. Also: the coverage of the pass-rate interval over correlated trials, pooled Wilson against the
// interval clustered by case. Targets: A/A at most level + 1 point everywhere; power within 2 points of the UMPU test.

import { compareRuns } from '../dist/src/history/significance.js';
import { clusteredRateInterval } from '../dist/src/metrics/stats/clustered.js';
import { wilsonInterval } from '../dist/src/metrics/stats/interval.js';
import { exactDropPower } from '../dist/src/metrics/stats/power.js';
import { seededRandom } from '../dist/src/metrics/stats/random.js';
import { significant, stratifiedDrop } from '../dist/src/metrics/stats/stratified.js';

const LEVEL = 0.05;
const REPS = 4000;
const started = process.hrtime.bigint();

/** A run holding only trial counts, one row per case, as the store gives the gate. */
function run(minute, cases) {
  return {
    id: `20261122T03${String(minute).padStart(2, '0')}00Z-0000000${minute}`,
    time: new Date(Date.UTC(2026, 10, 22, 3, minute)).toISOString(),
    scope: { kind: 'full' },
    summary: { checks: 0, passed: 0, failed: 0, notApplicable: 0, skipped: 0, passRate: null },
    checks: [],
    trials: cases.map(([name, trials, passes]) => ({
      spec: 'suite',
      criterion: 'pass',
      case: name,
      task: name,
      metric: 'pass',
      trials,
      passes,
      notApplicable: 0,
    })),
  };
}

function binomialDraw(random, n, p) {
  let x = 0;
  for (let i = 0; i < n; i++) if (random.next() < p) x++;
  return x;
}

/**
 * Simulates `REPS` pairs of runs; `layout(random)` returns the baseline's and the current run's cases as
 * [name, trials, passes]. Returns the gate's rate of regressions, and that of the pooled test it replaces (the same
 * test on the counts summed over every case of each run, as before).
 */
function simulate(seed, layout) {
  const random = seededRandom(seed);
  let gate = 0;
  let pooled = 0;
  for (let r = 0; r < REPS; r++) {
    const [before, after] = layout(random);
    const [c] = compareRuns(run(1, before), run(2, after), { level: LEVEL });
    if (c?.status === 'regressed') gate++;
    const sum = (cases) => ({
      trials: cases.reduce((s, c) => s + c[1], 0),
      passes: cases.reduce((s, c) => s + c[2], 0),
    });
    if (significant(stratifiedDrop([{ before: sum(before), after: sum(after) }]).pDrop, LEVEL)) pooled++;
  }
  return { gate: gate / REPS, pooled: pooled / REPS };
}

/** Cases with pass rates spread over [0.3, 1): trials of one case share its rate (correlated within the case). */
const rates = (random, n) => Array.from({ length: n }, () => 0.3 + 0.7 * random.next());
const draw = (random, ps, trials, prefix = 'case') =>
  ps.map((p, i) => {
    const n = typeof trials === 'function' ? trials(i) : trials;
    return [`${prefix}-${i}`, n, binomialDraw(random, n, p)];
  });

const rows = [];
const add = (layout, how, gate, pooled) => rows.push({ layout, how, gate, pooled });

// 1 case x n trials: exact.
for (const n of [3, 10, 30, 100]) {
  const sizes = [0.5, 0.8, 0.95].map((p) => exactDropPower(n, n, p, p, LEVEL));
  add(`1 case x ${n} trials (p = 0.5 / 0.8 / 0.95)`, 'exact', Math.max(...sizes), undefined);
  rows.at(-1).detail = sizes.map((s) => `${(s * 100).toFixed(2)}%`).join(' / ');
}
// n cases x 1 trial.
{
  const r = simulate(1, (random) => {
    const ps = rates(random, 50);
    return [draw(random, ps, 1), draw(random, ps, 1)];
  });
  add('50 cases x 1 trial', `simulated, ${REPS}`, r.gate, r.pooled);
}
// n cases x 5 correlated trials.
{
  const r = simulate(2, (random) => {
    const ps = rates(random, 20);
    return [draw(random, ps, 5), draw(random, ps, 5)];
  });
  add('20 cases x 5 correlated trials', `simulated, ${REPS}`, r.gate, r.pooled);
}
// A case added (a hard one) or removed.
{
  const r = simulate(3, (random) => {
    const ps = rates(random, 20);
    return [draw(random, ps, 5), [...draw(random, ps, 5), ['hard-new', 5, binomialDraw(random, 5, 0.05)]]];
  });
  add('20 cases x 5 trials, a hard case added', `simulated, ${REPS}`, r.gate, r.pooled);
  const s = simulate(4, (random) => {
    const ps = rates(random, 20);
    return [[...draw(random, ps, 5), ['easy-gone', 5, binomialDraw(random, 5, 0.99)]], draw(random, ps, 5)];
  });
  add('20 cases x 5 trials, an easy case removed', `simulated, ${REPS}`, s.gate, s.pooled);
}
// Trials per case changed: the harder half of the cases gets more trials in the current run.
{
  const r = simulate(5, (random) => {
    const ps = rates(random, 20);
    const more = (i) => (ps[i] < 0.65 ? 15 : 3);
    return [draw(random, ps, 5), draw(random, ps, more)];
  });
  add('20 cases, 5 trials -> 3 or 15 per case', `simulated, ${REPS}`, r.gate, r.pooled);
}

const pct = (x) => (x === undefined ? '-' : `${(x * 100).toFixed(2)}%`);
console.log(`A/A false regressions at level ${LEVEL * 100}% (target: at most ${LEVEL * 100 + 1}%)`);
console.log('| layout | how | gate | pooled test it replaces |');
console.log('| --- | --- | ---: | ---: |');
let worst = 0;
for (const row of rows) {
  worst = Math.max(worst, row.gate);
  console.log(`| ${row.layout} | ${row.how} | ${row.detail ?? pct(row.gate)} | ${pct(row.pooled)} |`);
}
console.log(
  `A/A target (<= ${LEVEL * 100 + 1}% in every layout; worst ${pct(worst)}): ${worst <= LEVEL + 0.01 ? 'met' : 'MISSED'}`,
);

/**
 * The exact power of the UMPU test of a drop for one case (Lehmann and Romano, Testing Statistical Hypotheses, 4.5):
 * given the total passes m, reject when the after side's passes fall below c(m), and with probability g(m) at c(m),
 * so that the conditional size is the level exactly.
 */
function umpuPower(n1, n2, p1, p2, level) {
  const logFact = [0];
  for (let i = 1; i <= n1 + n2; i++) logFact.push(logFact[i - 1] + Math.log(i));
  const logChoose = (n, k) => logFact[n] - logFact[k] - logFact[n - k];
  const phi = []; // phi[m][x2]
  for (let m = 0; m <= n1 + n2; m++) {
    const low = Math.max(0, m - n1);
    const high = Math.min(n2, m);
    const row = new Float64Array(n2 + 1);
    let tail = 0;
    for (let x = low; x <= high; x++) {
      const h = Math.exp(logChoose(n2, x) + logChoose(n1, m - x) - logChoose(n1 + n2, m));
      if (tail + h <= level) {
        row[x] = 1;
        tail += h;
      } else {
        row[x] = (level - tail) / h;
        break;
      }
    }
    phi.push(row);
  }
  const pmf = (n, p) =>
    Array.from({ length: n + 1 }, (_, x) =>
      Math.exp(logChoose(n, x) + x * Math.log(p) + (n - x) * Math.log1p(-p)),
    );
  const a = pmf(n1, p1);
  const b = pmf(n2, p2);
  let power = 0;
  for (let x1 = 0; x1 <= n1; x1++) for (let x2 = 0; x2 <= n2; x2++) power += a[x1] * b[x2] * phi[x1 + x2][x2];
  return power;
}

console.log('');
console.log('Power for one case, exact (every pair of outcomes enumerated; target: within 2 points of UMPU)');
console.log('| baseline | trials a side | drop | gate | UMPU test | difference |');
console.log('| --- | ---: | ---: | ---: | ---: | ---: |');
let worstGap = 0;
for (const [p, n, d] of [
  [0.8, 100, 0.1],
  [0.8, 100, 0.2],
  [0.8, 30, 0.2],
  [0.9, 50, 0.2],
  [0.5, 200, 0.1],
]) {
  const gate = exactDropPower(n, n, p, p - d, LEVEL);
  const best = umpuPower(n, n, p, p - d, LEVEL);
  if (n >= 100) worstGap = Math.max(worstGap, best - gate);
  console.log(
    `| ${p} | ${n} | ${Math.round(d * 100)} points | ${pct(gate)} | ${pct(best)} | ${((gate - best) * 100).toFixed(2)} points |`,
  );
}
console.log(
  `power target (within 2 points of UMPU at 100 or more trials a side; worst ${(worstGap * 100).toFixed(2)} points): ${worstGap <= 0.02 ? 'met' : 'MISSED'}`,
);

// Coverage of a 95% pass-rate interval over cases drawn from a population (case rates spread over [0.3, 1), mean
// 0.65), trials correlated within a case: pooled Wilson against the interval clustered by case.
console.log('');
console.log('Coverage of the 95% pass-rate interval, cases drawn at random (true rate 0.65), simulated');
console.log('| layout | pooled Wilson | clustered by case |');
console.log('| --- | ---: | ---: |');
for (const [cases, trials, seed] of [
  [10, 10, 6],
  [20, 5, 7],
  [30, 10, 8],
  [50, 1, 9],
]) {
  const random = seededRandom(seed);
  let pooled = 0;
  let clustered = 0;
  for (let r = 0; r < REPS; r++) {
    const drawn = draw(random, rates(random, cases), trials).map(([, t, x]) => ({ trials: t, passes: x }));
    const passes = drawn.reduce((s, c) => s + c.passes, 0);
    const w = wilsonInterval(passes, cases * trials);
    const c = clusteredRateInterval(drawn);
    if (w.low <= 0.65 && 0.65 <= w.high) pooled++;
    if (c.low <= 0.65 && 0.65 <= c.high) clustered++;
  }
  console.log(`| ${cases} cases x ${trials} trials | ${pct(pooled / REPS)} | ${pct(clustered / REPS)} |`);
}
console.log(`\n(${(Number(process.hrtime.bigint() - started) / 1e9).toFixed(1)} s wall)`);
