import { UsageError } from '../../errors/index.js';
import type { RetentionPolicy } from './store.js';

/** What a retention setting says, as written (`keepLast: 200`, `olderThan: '90d'`). */
export interface Retention {
  /** Keep only the most recent this many runs. */
  keepLast?: number;
  /** Drop runs that ended longer ago than this: a whole number with `h`, `d` or `w` (`90d`). */
  olderThan?: string;
}

const UNITS: Record<string, number> = { h: 3600_000, d: 86_400_000, w: 7 * 86_400_000 };

/** A retention setting as the policy `Store.prune` applies at `now`; a malformed value is a usage error naming it. */
export function retentionPolicy(retention: Retention, now: Date = new Date()): RetentionPolicy {
  const policy: RetentionPolicy = {};
  if (retention.keepLast !== undefined) {
    if (!Number.isInteger(retention.keepLast) || retention.keepLast < 1)
      throw new UsageError(
        `--keep-last expects a whole number of at least 1, got ${String(retention.keepLast)}`,
      );
    policy.keepLast = retention.keepLast;
  }
  if (retention.olderThan !== undefined) {
    const match = /^(\d+)\s*([hdw])$/.exec(String(retention.olderThan).trim());
    if (!match)
      throw new UsageError(
        `--older-than expects a whole number of hours, days or weeks, like 90d, 12h or 4w; got ${String(retention.olderThan)}`,
      );
    policy.olderThan = new Date(now.getTime() - Number(match[1]) * (UNITS[match[2]!] ?? 0));
  }
  return policy;
}
