import { createHash } from 'node:crypto';
import { mkdirSync, readdirSync, readFileSync, statSync, unlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import v8 from 'node:v8';
import { writeFileAtomicSync } from '../io/atomic.js';
import type { Spec } from '../model/spec.js';
import { version } from '../version.js';
import { readSpecText, specKind } from './file.js';

/**
 * Reads a spec file as `loadSpec` does, through a cache of the specs read before in `cacheDir`: a spec file that has
 * not changed since it was last read is not parsed again (a run checks new workups against the same specs, and a
 * 1,000-case file's YAML takes 0.12-0.15 s to parse in a fresh test worker, against 0.02 s to read back), as Jest
 * caches each file's transform. An entry is the spec structured-cloned (`v8.serialize`), keyed by everything the
 * spec is made from: the file's path and text, this build of needlework, the js-yaml that read it and the V8 that
 * cloned it. Only a spec that reads no other file is kept (a cases file that names a judge may read a rubric file
 * too), and only a valid one (a bad spec is read again, and says what is wrong). The cache is best effort: an entry
 * that cannot be read or written is a spec parsed now. Without `cacheDir`, the file is parsed (and its parser loaded)
 * as `loadSpec` does.
 */
export async function loadSpecCached(file: string, cacheDir: string | undefined): Promise<Spec> {
  const text = await readSpecText(file);
  // A cases file may name a judge's rubric file, which the spec is made from too.
  if (cacheDir === undefined || (specKind(file) === 'cases' && text.includes('judge')))
    return await parse(text, file);
  const name = entryName(file, text);
  const path = join(cacheDir, name);
  try {
    const entry = v8.deserialize(readFileSync(path)) as { spec?: Spec };
    if (typeof entry?.spec?.kind === 'string') return entry.spec;
  } catch {
    // none yet, or not readable: parsed now
  }
  const spec = await parse(text, file);
  try {
    mkdirSync(cacheDir, { recursive: true });
    writeFileAtomicSync(path, v8.serialize({ spec }), { fsync: false });
    removeOlder(cacheDir, name);
  } catch {
    // a read-only or full cache folder: the spec is parsed again next time
  }
  return spec;
}

/** The spec parsed: the parser (the YAML reader and the schemas) is loaded only when a spec is not in the cache. */
async function parse(text: string, file: string): Promise<Spec> {
  return (await import('./load.js')).parseSpec(text, file);
}

/**
 * `<path digest>-<digest of the text and the build>.bin`: the file's earlier entries (an older text, or one an older
 * build wrote) share the first part, so each write removes them: the cache holds one entry per spec file.
 */
export function entryName(file: string, text: string, code: string = CODE): string {
  const digest = (value: string) => createHash('sha256').update(value).digest('hex').slice(0, 32);
  return `${digest(file)}-${digest(`${code}\0${text}`)}.bin`;
}

function removeOlder(cacheDir: string, name: string): void {
  const prefix = name.slice(0, name.indexOf('-') + 1);
  for (const other of readdirSync(cacheDir)) {
    if (other !== name && other.startsWith(prefix) && other.endsWith('.bin')) {
      try {
        unlinkSync(join(cacheDir, other));
      } catch {
        // removed by another run
      }
    }
  }
}

/**
 * This build of the spec reader: needlework's version, when this module was written (a build or an install of the
 * package writes it anew), the js-yaml that reads the YAML (updated alone, it may read a file otherwise) and the V8
 * whose clone format the entries are in.
 */
const CODE = `${version}\0${statSync(fileURLToPath(import.meta.url)).mtimeMs}\0${readerVersion()}\0${process.versions.v8}`;

/** js-yaml's version, read from its package.json (not from js-yaml itself, which a cached spec never loads). */
function readerVersion(): string {
  try {
    const path = createRequire(import.meta.url).resolve('js-yaml/package.json');
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version;
  } catch {
    return 'unknown';
  }
}
