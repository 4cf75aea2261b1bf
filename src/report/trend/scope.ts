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
