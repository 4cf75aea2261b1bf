import { type Diagnostic, UserError } from '../errors/index.js';
import { firstProblems } from '../parse/document.js';
import { parseJson } from '../parse/json.js';
import { jsonLocator } from '../parse/json-places.js';
import { checkSchema } from '../parse/schema.js';
import { migrateHistory } from './migrate.js';
import type { TrendHistory } from './types.js';

/**
 * The most trials one run may pool for one spec x criterion (over its tasks): the exact test of the regression gate
 * tabulates factorials up to twice this many, so a hand-edited count of a billion is refused here, not computed.
 */
export const MAX_POOLED_TRIALS = 1_000_000;

/**
 * A trend history's text, read and checked: version 2 against `trend.schema.json`, version 1 against
 * `trend-v1.schema.json` (and then migrated), every field, each problem at its line and column; then what a schema
 * cannot say: no task passes more trials than it ran, and no run pools more than `MAX_POOLED_TRIALS` for one
 * criterion. A file that is not a history at all keeps its one-line refusal.
 */
export function parseHistory(text: string, file: string): TrendHistory {
  const data = parseJson(text, file);
  const schema = (data as { schema?: unknown } | null)?.schema;
  if (
    typeof data !== 'object' ||
    data === null ||
    (schema !== 1 && schema !== 2) ||
    !Array.isArray((data as { runs?: unknown }).runs)
  ) {
    throw new UserError({
      file,
      message:
        'not a needlework trend history: expected an object with "schema": 2 (or 1) and a "runs" array',
    });
  }
  const locate = jsonLocator(text);
  const problems = checkSchema(schema === 1 ? 'trend-v1' : 'trend', data, file, locate);
  if (problems.length === 0 && schema === 2) {
    const runs = (data as TrendHistory).runs;
    runs.forEach((run, r) => {
      const pooled = new Map<string, number>();
      run.trials.forEach((t, i) => {
        const at = (key: string): Diagnostic => ({
          file,
          ...locate(['runs', String(r), 'trials', String(i)], key),
          message: '',
        });
        if (t.passes > t.trials)
          problems.push({
            ...at('passes'),
            message: `runs[${r}].trials[${i}].passes must be at most its trials (${t.trials}), got ${t.passes}`,
          });
        const key = `${t.spec}\0${t.criterion}`;
        const total = (pooled.get(key) ?? 0) + t.trials;
        pooled.set(key, total);
        if (total > MAX_POOLED_TRIALS && total - t.trials <= MAX_POOLED_TRIALS)
          problems.push({
            ...at('trials'),
            message: `runs[${r}] pools more than ${MAX_POOLED_TRIALS} trials for ${t.spec} ${t.criterion}`,
          });
      });
    });
  }
  if (problems.length > 0) throw new UserError(firstProblems(problems, file, 'trend history'));
  return schema === 1 ? migrateHistory(data as Parameters<typeof migrateHistory>[0]) : (data as TrendHistory);
}
