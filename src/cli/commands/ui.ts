import { resolveStore, storeName } from '../../history/store/open.js';
import { startUi } from '../../ui/server.js';
import type { Io } from '../io.js';

export interface UiCommandOptions {
  /** The store (`--store`); else `NEEDLEWORK_STORE`, else `.needlework/store`. */
  store?: string;
  port?: number;
  /** `--host`: the address to listen on; `--host` alone means every address (0.0.0.0). */
  host?: string;
  /** The project folder. @default process.cwd() */
  root?: string;
  /** Resolves when the UI should stop. @default SIGINT or SIGTERM */
  until?: Promise<unknown>;
}

/** `needlework ui`: serves the run history to a browser until stopped (Ctrl-C), and prints its address. */
export async function runUi(options: UiCommandOptions, io: Io): Promise<number> {
  const location = resolveStore(options.store, options.root ?? process.cwd());
  const ui = await startUi({
    store: location,
    ...(options.port !== undefined && { port: options.port }),
    ...(options.host !== undefined && { host: options.host }),
  });
  io.out(`needlework ui: ${ui.url} (the results store ${storeName(location)}; Ctrl-C stops it)`);
  if (options.host !== undefined && options.host !== '127.0.0.1' && options.host !== 'localhost')
    io.out(
      `needlework ui: listening on ${options.host}: anyone who can reach this address can read the history`,
    );
  await (options.until ??
    new Promise<void>((resolve) => {
      process.once('SIGINT', () => resolve());
      process.once('SIGTERM', () => resolve());
    }));
  await ui.close();
  return 0;
}
