import { UsageError } from '../../errors/index.js';
import { resolveStore, withOpenedStore } from '../../history/store/open.js';
import { type Retention, retentionPolicy } from '../../history/store/retention.js';
import { openSharedStore } from '../../ui/door/client.js';
import type { Io } from '../io.js';

export interface PruneOptions extends Retention {
  /** The store (`--store`); else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
  /** The project folder. @default process.cwd() */
  root?: string;
}

/** `needlework prune --keep-last N --older-than 90d`: drops the runs the retention does not keep, with their checks. */
export async function runPrune(options: PruneOptions, io: Io): Promise<number> {
  if (options.keepLast === undefined && options.olderThan === undefined)
    throw new UsageError('prune needs --keep-last <n>, --older-than <age> (like 90d), or both');
  const policy = retentionPolicy(options);
  const root = options.root ?? process.cwd();
  // Through the door of a UI that holds the store, which tells its pages.
  const opening = openSharedStore(resolveStore(options.store, root), { mustExist: true });
  return withOpenedStore(opening, async (store) => {
    const dropped = await store.prune(policy);
    const kept = await store.count();
    io.out(
      `needlework: pruned ${dropped} run${dropped === 1 ? '' : 's'} from ${store.name}; ${kept} run${kept === 1 ? '' : 's'} kept`,
    );
    return 0;
  });
}
