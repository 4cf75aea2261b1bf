import { createHash } from 'node:crypto';
import { basename } from 'node:path';
import { trialFromLayout } from './trial-layout.js';

/** What a folder name may not hold on any common file system. */
const NOT_A_FILE_NAME = /[/\\:*?"<>|\u0000-\u001f]/g;

/** The most UTF-8 bytes a folder name is given; file systems refuse names over 255. */
export const MAX_NAME_BYTES = 120;

/**
 * A folder name for a workup id or a run's name, safe on every common file system: each character a file system
 * refuses becomes `_`; a name of leading dots (`.`, `..`, `.hidden`) gets `_` for them, so it never names the folder
 * itself, its parent or a hidden folder; an empty name becomes `fallback`; a name over `MAX_NAME_BYTES` bytes is cut
 * (never inside a character) and ends with 16 hex digits of the SHA-256 of the whole, so long names that share a
 * start stay apart. The id itself is kept in the workup's files (see `saveWorkup`); only the folder is named this way.
 */
export function safeFolderName(name: string, fallback = 'run'): string {
  const safe = name.replace(NOT_A_FILE_NAME, '_').replace(/^\.+/, '_');
  if (safe === '') return fallback;
  if (Buffer.byteLength(safe) <= MAX_NAME_BYTES) return safe;
  const hash = createHash('sha256').update(name).digest('hex').slice(0, 16);
  let cut = '';
  let bytes = 0;
  for (const char of safe) {
    bytes += Buffer.byteLength(char);
    if (bytes > MAX_NAME_BYTES - hash.length - 1) break;
    cut += char;
  }
  return `${cut}-${hash}`;
}

/** The id `loadWorkup` gives a workup folder whose `meta.json` names none: its `<task>/<n>` layout id, or its name. */
export function folderId(dir: string): string {
  return trialFromLayout(dir)?.id ?? basename(dir);
}
