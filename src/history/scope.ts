import type { TrendScope } from './types.js';

/**
 * The key under which runs are comparable: every full run shares one; partial runs share one only when they ran the
 * same files with the same name filter (a watch pass and a one-shot run of the same filter are alike).
 */
export function scopeKey(scope: TrendScope): string {
  if (scope.kind === 'full') return 'full';
  return JSON.stringify([[...(scope.files ?? [])].sort(), scope.testNamePattern ?? '']);
}

/** The scope in words: `full`, or `partial (files a.test.ts; -t "cheap"; watch)`. */
export function describeScope(scope: TrendScope): string {
  if (scope.kind === 'full') return 'full';
  const parts: string[] = [];
  if (scope.files?.length) parts.push(`files ${scope.files.join(', ')}`);
  if (scope.testNamePattern !== undefined) parts.push(`-t ${JSON.stringify(scope.testNamePattern)}`);
  if (scope.watch) parts.push('watch');
  if (scope.ui) parts.push('UI');
  return parts.length ? `partial (${parts.join('; ')})` : 'partial';
}

/** What `detectScope` reads of Vitest: its resolved config and the file filters of the current run. */
export interface ScopeSource {
  config: { watch?: boolean; ui?: boolean; testNamePattern?: RegExp | string | undefined };
  /** The CLI file filters (`vitest run a.test.ts`); Vitest keeps them on its instance (not yet public API). */
  filenamePattern?: string[] | undefined;
}

/**
 * The scope of the run Vitest is finishing: partial when it had file filters, a `-t` name filter, or ran in watch mode
 * or from the UI (each a subset, or a re-run of whatever changed), full otherwise.
 */
export function detectScope(vitest: ScopeSource): TrendScope {
  const files = vitest.filenamePattern?.filter((f) => f !== '') ?? [];
  const pattern = vitest.config.testNamePattern;
  const scope: TrendScope = { kind: 'partial' };
  if (files.length) scope.files = [...files];
  if (pattern !== undefined && String(pattern) !== '')
    scope.testNamePattern = pattern instanceof RegExp ? pattern.source : pattern;
  if (vitest.config.watch) scope.watch = true;
  if (vitest.config.ui) scope.ui = true;
  return Object.keys(scope).length === 1 ? { kind: 'full' } : scope;
}
