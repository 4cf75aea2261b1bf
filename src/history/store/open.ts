import { readFile, stat } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import { closest } from '../../errors/closest.js';
import { UserError } from '../../errors/index.js';
import { displayPath } from '../../io/display-path.js';
import { openEmbedded } from './embedded.js';
import { historySource } from './history-source.js';
import { migrate } from './migrations.js';
import { openServer, redactUrl } from './server.js';
import type { RunSource } from './source.js';
import type { SqlClient, SqlEngine } from './sql.js';
import { Store } from './store.js';
import { validRuns } from './validate.js';

/** The environment variable that names the store when `--store` does not. */
export const STORE_ENV = 'NEEDLEWORK_STORE';
/** Where the embedded store lives when neither `--store` nor `NEEDLEWORK_STORE` says, relative to the project. */
export const DEFAULT_STORE = '.needlework/store';

/** Whether a store location is a PostgreSQL server URL (else it is the embedded store's folder). */
export function isServerUrl(location: string): boolean {
  return /^postgres(ql)?:\/\//i.test(location);
}

/** The schemes a store location may have: a PostgreSQL server's. */
const STORE_SCHEMES = ['postgres', 'postgresql'];

/**
 * The store a command or reporter uses: `given` (`--store`, a reporter option), else `NEEDLEWORK_STORE`, else the
 * embedded store in `.needlework/store`. A folder is resolved against `root`; a URL is kept as written. A URL of any
 * other scheme (`postgress://db/x`) is a mistake, refused: taken as a folder, it made a local store named `postgress:`
 * and the history of a CI run went nowhere.
 */
export function resolveStore(
  given: string | undefined,
  root: string,
  env: NodeJS.ProcessEnv = process.env,
): string {
  const location = given || env[STORE_ENV] || DEFAULT_STORE;
  if (isServerUrl(location)) return location;
  const scheme = /^([a-z][a-z0-9+.-]*):\/\//i.exec(location)?.[1];
  if (scheme !== undefined) {
    const meant = closest(scheme, STORE_SCHEMES);
    throw new UserError({
      file: given ? '--store' : STORE_ENV,
      message: `${redactUrl(location)}: unknown scheme "${scheme}://"; a results store is a folder or a postgres:// (postgresql://) URL${meant ? `: did you mean ${meant}://?` : ''}`,
    });
  }
  return isAbsolute(location) ? location : resolve(root, location);
}

/**
 * Where a reporter reads the runs before this one: a trend.json named as such (relative to `root`), else the store
 * (`resolveStore`); undefined for `false` (the reporter was told to read none).
 */
export function historyLocation(given: string | false | undefined, root: string): string | undefined {
  if (given === false) return undefined;
  return given && /\.json$/i.test(given) ? resolve(root, given) : resolveStore(given || undefined, root);
}

/** The store's name in messages: its folder relative to the working directory, or its URL without the password. */
export function storeName(location: string): string {
  return isServerUrl(location) ? redactUrl(location) : displayPath(location);
}

export interface OpenStoreOptions {
  /** Fail when an embedded store does not exist yet, rather than create it (readers). */
  mustExist?: boolean;
  /** How long to wait (ms) for another process that has the embedded store open. */
  lockTimeoutMs?: number;
  /**
   * trend.json files (the history of needlework before the store) imported when the store is created: the first
   * that exists is imported, once, in the transaction that creates the store.
   */
  importOnCreate?: readonly string[];
  /** Where a line for the user goes (what was imported on first use). */
  note?: (line: string) => void;
  /**
   * Called once the store is being opened off this thread (the embedded store's thread asked to open it, or a server
   * being connected to), or once another process is found holding the embedded store: from then on, a busy thread
   * here does not hold the opening back.
   */
  started?: () => void;
}

/**
 * Opens (creating and migrating as needed) the store at `location`. A store that cannot be opened, reached or
 * migrated is one `UserError` naming it and the reason, so every command and reporter reports it in one line.
 */
export async function openStore(location: string, options: OpenStoreOptions = {}): Promise<Store> {
  const name = storeName(location);
  let engine: SqlEngine | undefined;
  try {
    if (isServerUrl(location)) {
      const connecting = openServer(location);
      options.started?.();
      engine = await connecting;
    } else
      engine = await openEmbedded(location, {
        ...(options.mustExist !== undefined && { mustExist: options.mustExist }),
        ...(options.lockTimeoutMs !== undefined && { lockTimeoutMs: options.lockTimeoutMs }),
        ...(options.started && { started: options.started }),
      });
    const store = new Store(engine, name);
    await migrate(engine, (tx) => importOnCreate(store, tx, options));
    return store;
  } catch (error) {
    await engine?.close().catch(() => undefined);
    if (error instanceof UserError) throw error;
    throw new UserError({ file: name, message: `cannot open the results store: ${reason(error)}` });
  }
}

/** Opens the store, runs `fn` with it and closes it, whatever `fn` does. */
export function withStore<T>(
  location: string,
  options: OpenStoreOptions,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  return withOpenedStore(openStore(location, options), fn);
}

/** Runs `fn` with the store that `opening` opens (an `openStore` begun earlier) and closes it, whatever `fn` does. */
export async function withOpenedStore<T>(
  opening: Promise<Store>,
  fn: (store: Store) => Promise<T>,
): Promise<T> {
  const store = await opening;
  try {
    return await fn(store);
  } finally {
    await store.close();
  }
}

async function importOnCreate(store: Store, tx: SqlClient, options: OpenStoreOptions): Promise<void> {
  for (const file of options.importOnCreate ?? []) {
    let text: string;
    try {
      text = await readFile(file, 'utf8');
    } catch {
      continue;
    }
    let data: { schema: 1 | 2; runs: unknown[] };
    try {
      data = JSON.parse(text);
      if (!Array.isArray(data?.runs) || (data.schema !== 1 && data.schema !== 2)) throw new Error('no runs');
    } catch {
      options.note?.(
        `needlework: ${displayPath(file)} is not a trend history; nothing imported into the results store ${store.name}`,
      );
      return;
    }
    const { runs, rejected } = validRuns(data);
    const { added } = await store.import(runs, tx);
    options.note?.(
      `needlework: imported ${added} run${added === 1 ? '' : 's'} from ${displayPath(file)} into the new results store ${store.name}${rejected.length ? `; ${rejected.length} could not be read: ${rejected.join('; ')}` : ''} (the file is no longer written; \`needlework trend export\` writes one)`,
    );
    return;
  }
}

/** The reason in an error, one line: node-postgres and PGlite errors carry it in `message`, a refused socket in `code`. */
function reason(error: unknown): string {
  if (error instanceof AggregateError && error.errors.length > 0) return reason(error.errors[0]);
  const e = error as { message?: string; code?: string };
  const text = e?.message || e?.code || String(error);
  return text.split('\n')[0] ?? text;
}

/**
 * Opens what `needlework trend` and the gate read runs from: a trend.json export (a path ending in `.json`, or any
 * file), or a store (a folder or a server URL) that must already exist. A folder that is not a store is one line
 * saying so, never a raw EISDIR.
 */
export async function openSource(location: string, root: string): Promise<RunSource> {
  if (!isServerUrl(location)) {
    const path = resolve(root, location);
    const info = await stat(path).catch(() => undefined);
    if (info?.isFile() || (!info && /\.json$/i.test(path))) {
      if (!info)
        throw new UserError({
          file: location,
          message: 'no such trend history (run the tests with the trend reporter first)',
        });
      return historySource(path);
    }
    return openStore(path, { mustExist: true });
  }
  return openStore(location);
}
