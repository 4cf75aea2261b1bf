import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { extname, join, normalize, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
};

/** The browser client's one script, which `npm run build` bundles (src/ui/client/bundle.mjs). */
export const CLIENT_SCRIPT = 'needlework.js';

/**
 * The folder of the browser client that `npm run build` builds (src/ui/client -> dist/src/ui/client: index.html,
 * style.css and `CLIENT_SCRIPT`). Built, this module sits beside it; run from source (the tests), it is read from dist.
 */
export function clientFolder(): string {
  const beside = fileURLToPath(new URL('./client/', import.meta.url));
  if (existsSync(join(beside, CLIENT_SCRIPT))) return beside;
  return fileURLToPath(new URL('../../dist/src/ui/client/', import.meta.url));
}

/** A client file by its name under `/assets/`, or undefined when there is none (nothing outside the folder). */
export async function readAsset(
  folder: string,
  name: string,
): Promise<{ body: Buffer; type: string } | undefined> {
  const type = TYPES[extname(name)];
  if (!type || name.includes('\0')) return undefined;
  const path = normalize(join(folder, name));
  if (!path.startsWith(normalize(folder).replace(/[\\/]?$/, sep))) return undefined;
  try {
    return { body: await readFile(path), type };
  } catch {
    return undefined;
  }
}
