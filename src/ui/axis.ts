import type { TrendRun } from '../history/types.js';
import type { Axis } from './client/types.js';

/** The [0, 1] axis of a score or a pass rate, in quarters. */
export const UNIT_AXIS: Axis = { min: 0, max: 1, ticks: [0, 0.25, 0.5, 0.75, 1] };

/** About this many intervals between ticks: enough to read a value off, few enough to label in a small chart. */
const INTERVALS = 4;

/**
 * The value axis of a chart, fitted to its values and their unit. A score with no unit keeps the [0, 1] it is defined
 * on, and a `score-<lo>-<hi>` unit its own range, as long as every value lies inside; anything else (a count of
 * steps, tokens, milliseconds, a unitless metric that is not a score) spans its values, widened to round tick steps
 * (1, 2, 2.5 or 5 times a power of ten). A single value or a flat series gets a band around it, so its points sit
 * inside the plot rather than on its edge.
 */
export function fittedAxis(values: ReadonlyArray<number | null | undefined>, unit?: string): Axis {
  const present = values.filter((v): v is number => typeof v === 'number' && Number.isFinite(v));
  if (present.length === 0) return UNIT_AXIS;
  let lo = Math.min(...present);
  let hi = Math.max(...present);
  if (unit === undefined && lo >= 0 && hi <= 1) return UNIT_AXIS;
  const range = unit === undefined ? undefined : /^score-(-?\d+(?:\.\d+)?)-(-?\d+(?:\.\d+)?)$/.exec(unit);
  if (range) {
    const [min, max] = [Number(range[1]), Number(range[2])];
    if (min < max && lo >= min && hi <= max) return evenAxis(min, max);
  }
  if (hi === lo) {
    const pad = lo === 0 ? 1 : Math.abs(lo) * 0.1;
    // A count or a duration is never negative: do not draw an axis below zero for one.
    lo = lo >= 0 ? Math.max(0, lo - pad) : lo - pad;
    hi += pad;
  }
  const step = niceStep((hi - lo) / INTERVALS);
  const min = Math.floor(lo / step + 1e-9) * step;
  const max = Math.ceil(hi / step - 1e-9) * step;
  return { min: tidy(min), max: tidy(max), ticks: ticks(min, max, step) };
}

/** An axis from `min` to `max` with whole-number ticks where the span allows, else quarters. */
function evenAxis(min: number, max: number): Axis {
  const step = max - min <= 8 && Number.isInteger(min) && Number.isInteger(max) ? 1 : (max - min) / INTERVALS;
  return { min, max, ticks: ticks(min, max, step) };
}

/** The smallest of 1, 2, 2.5, 5 and 10 times a power of ten that is at least `raw`. */
function niceStep(raw: number): number {
  const power = 10 ** Math.floor(Math.log10(raw));
  const fraction = raw / power;
  const nice = [1, 2, 2.5, 5, 10].find((n) => fraction <= n + 1e-9) ?? 10;
  return nice * power;
}

function ticks(min: number, max: number, step: number): number[] {
  const count = Math.round((max - min) / step);
  return Array.from({ length: count + 1 }, (_, i) => tidy(min + i * step));
}

/** Drops the float noise of repeated steps (0.30000000000000004 is 0.3). */
function tidy(value: number): number {
  return Number(value.toPrecision(12));
}

/** A run as its x-axis label: the commit's first 7 characters, else its time (`MM-DD HH:MM`, UTC). */
export function runLabel(run: Pick<TrendRun, 'time' | 'commit'>): string {
  if (run.commit) return run.commit.slice(0, 7);
  const time = /^\d{4}-(\d\d-\d\d)T(\d\d:\d\d)/.exec(run.time);
  return time ? `${time[1]} ${time[2]}` : run.time;
}
