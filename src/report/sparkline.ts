const BARS = '▁▂▃▄▅▆▇█';

/**
 * A one-line chart of a series, one block per value scaled between the series' minimum and maximum; a missing value
 * is a space. A flat series is drawn at mid height, so "no change" never reads as "zero".
 */
export function sparkline(values: ReadonlyArray<number | undefined>): string {
  const present = values.filter((v): v is number => v !== undefined && Number.isFinite(v));
  if (present.length === 0) return ' '.repeat(values.length);
  let min = present[0]!;
  let max = min;
  for (const v of present) {
    if (v < min) min = v;
    if (v > max) max = v;
  }
  return values
    .map((v) => {
      if (v === undefined || !Number.isFinite(v)) return ' ';
      if (max === min) return BARS[3];
      return BARS[Math.round(((v - min) / (max - min)) * (BARS.length - 1))];
    })
    .join('');
}
