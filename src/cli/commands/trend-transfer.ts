import { randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname, resolve } from 'node:path';
import { UserError } from '../../errors/index.js';
import { streamHistory } from '../../history/history.js';
import { resolveStore, withOpenedStore } from '../../history/store/open.js';
import { validRuns } from '../../history/store/validate.js';
import { displayPath } from '../../io/display-path.js';
import { openSharedStore } from '../../ui/door/client.js';
import type { Io } from '../io.js';

export interface TransferOptions {
  /** The store (`--store`); else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
  /** The project folder. @default process.cwd() */
  root?: string;
}

/**
 * `needlework trend export [--out file]`: every run of the store, oldest first, as a trend.json (the format of
 * `needlework/schemas/trend.schema.json`), written one run at a time; to standard output without `--out`.
 */
export async function runTrendExport(options: TransferOptions & { out?: string }, io: Io): Promise<number> {
  const root = options.root ?? process.cwd();
  return withOpenedStore(
    openSharedStore(resolveStore(options.store, root), { mustExist: true }),
    async (store) => {
      if (!options.out) {
        const chunks: string[] = [];
        await streamHistory(store.runs(), (bytes) => {
          chunks.push(Buffer.from(bytes).toString('utf8'));
        });
        io.out(chunks.join('').trimEnd());
        return 0;
      }
      const path = resolve(root, options.out);
      await mkdir(dirname(path), { recursive: true });
      const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
      const handle = await open(temp, 'w');
      let n: number;
      try {
        n = await streamHistory(store.runs(), async (bytes) => {
          await handle.write(bytes);
        });
        await handle.sync();
      } catch (error) {
        await handle.close();
        await unlink(temp).catch(() => undefined);
        throw error;
      }
      await handle.close();
      await rename(temp, path);
      io.err(`needlework: exported ${n} run${n === 1 ? '' : 's'} from ${store.name} to ${displayPath(path)}`);
      return 0;
    },
  );
}

/**
 * `needlework trend import <file>`: adds the runs of a trend.json the store does not hold yet (by id). A run the
 * schema refuses is named with what is wrong and the others are still imported; the exit code is then 1.
 */
export async function runTrendImport(options: TransferOptions & { file: string }, io: Io): Promise<number> {
  const root = options.root ?? process.cwd();
  const path = resolve(root, options.file);
  let data: { schema: 1 | 2; runs: unknown[] };
  try {
    data = JSON.parse(await readFile(path, 'utf8'));
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new UserError({
      file: options.file,
      message:
        code === 'ENOENT'
          ? 'no such file'
          : code === 'EISDIR'
            ? 'is a folder; expected a trend.json file'
            : `not a needlework trend history: ${(error as Error).message}`,
    });
  }
  if (
    typeof data !== 'object' ||
    data === null ||
    (data.schema !== 1 && data.schema !== 2) ||
    !Array.isArray(data.runs)
  )
    throw new UserError({
      file: options.file,
      message:
        'not a needlework trend history: expected an object with "schema": 2 (or 1) and a "runs" array',
    });
  const { runs, rejected } = validRuns(data);
  return withOpenedStore(openSharedStore(resolveStore(options.store, root)), async (store) => {
    const { added, present } = await store.import(runs);
    io.out(
      `needlework: imported ${added} run${added === 1 ? '' : 's'} from ${options.file} into ${store.name}${present ? ` (${present} already there)` : ''}`,
    );
    for (const line of rejected) io.err(`${options.file}: ${line}; not imported`);
    return rejected.length > 0 ? 1 : 0;
  });
}
