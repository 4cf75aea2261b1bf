import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createFileExclusive, writeFileAtomic } from '../../io/atomic.js';

/** The folder `needlework run` keeps its results store in (`DEFAULT_STORE`'s parent): local, never committed. */
export const IGNORED = '.needlework/';

/** A `.gitignore` line that already ignores the folder, however written (`.needlework`, `/.needlework/`, ...). */
const IGNORES = /^\/?\.needlework\/?$/;

/**
 * Adds `.needlework/` to the project's `.gitignore`: creates the file when there is none, appends the line (after a
 * newline if the last line has none) when no line ignores the folder yet, and leaves the file alone otherwise. The
 * user's own lines are kept as they are. Returns what it did.
 */
export async function ignoreStore(root: string): Promise<'created' | 'updated' | 'kept'> {
  const file = join(root, '.gitignore');
  const block = `# needlework's results store (needlework init)\n${IGNORED}\n`;
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    if (await createFileExclusive(file, block)) return 'created';
    text = await readFile(file, 'utf8');
  }
  if (text.split(/\r?\n/).some((line) => IGNORES.test(line.trim()))) return 'kept';
  // The user's lines as they were, the block after them, written whole: a crash leaves the old file.
  await writeFileAtomic(file, `${text}${text === '' || text.endsWith('\n') ? '' : '\n'}${block}`);
  return 'updated';
}
